/**
 * A streaming CSV reader (RFC 4180): fields separated by commas, optionally quoted with `"`,
 * a quote inside a quoted field doubled (`""`), records ending in LF or CRLF, and line breaks
 * allowed inside quoted fields. Each record carries the line it starts on, for error reports.
 * A malformed record (text after a closing quote, a quote left open) is reported, not thrown.
 */
export type CsvRecord = { line: number; fields: string[] } | { line: number; error: string };

export async function* parseCsv(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let afterQuote = false; // just closed a quoted field: only a comma or a line break may follow
  let broken: string | null = null;
  let line = 1;
  let recordLine = 1;
  let pendingQuote = false; // a quote ended the previous chunk inside a quoted field
  let fieldStarted = false;

  const endRecord = (): CsvRecord | null => {
    fields.push(field);
    const record: CsvRecord | null =
      broken !== null
        ? { line: recordLine, error: broken }
        : fields.length === 1 && fields[0] === '' && !fieldStarted
          ? null // a blank line
          : { line: recordLine, fields };
    fields = [];
    field = '';
    afterQuote = false;
    broken = null;
    fieldStarted = false;
    return record;
  };

  for await (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i] as string;
      if (inQuotes) {
        if (pendingQuote) {
          pendingQuote = false;
          if (c === '"') {
            field += '"';
            continue;
          }
          inQuotes = false;
          afterQuote = true;
          // fall through: c is handled as the character after a closing quote
        } else if (c === '"') {
          pendingQuote = true;
          continue;
        } else {
          if (c === '\n') line += 1;
          field += c;
          continue;
        }
      }
      if (c === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
        fieldStarted = true;
      } else if (c === '\n') {
        line += 1;
        const record = endRecord();
        if (record) yield record;
        recordLine = line;
      } else if (c === '\r') {
        // CRLF: the LF ends the record.
      } else if (afterQuote) {
        broken ??= `text after a closing quote in field ${fields.length + 1}`;
      } else if (c === '"' && field === '') {
        inQuotes = true;
        fieldStarted = true;
      } else {
        field += c;
        fieldStarted = true;
      }
    }
  }
  if (pendingQuote) {
    inQuotes = false;
    afterQuote = true;
  }
  if (inQuotes) {
    broken = 'a quoted field is never closed';
    fieldStarted = true;
  }
  const last = endRecord();
  if (last) yield last;
}
