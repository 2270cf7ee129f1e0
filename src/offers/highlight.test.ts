import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../web/html.js';
import { highlight } from './highlight.js';
import { parseTextQuery, type TextQuery } from './text.js';

const query = (q: string): TextQuery => {
  const parsed = parseTextQuery(q);
  if (!parsed) throw new Error(`nothing to search in ${q}`);
  return parsed;
};

describe('highlight', () => {
  it('marks stemmed matches and the typed prefix in the title', () => {
    const h = highlight({ title: 'Four dining chairs', description: 'Beech wood.' }, query('chair din'));
    expect(h.title).toBe('Four <mark>dining</mark> <mark>chairs</mark>');
    expect(h.description).toBe('Beech wood.');
  });

  it('escapes offer text before marking, so it can never inject markup', () => {
    const h = highlight(
      { title: '<script>alert("lamp")</script> & lamp', description: "it's a <b>lamp</b>" },
      query('lamp '),
    );
    expect(h.title).toBe(
      '&lt;script&gt;alert(&quot;<mark>lamp</mark>&quot;)&lt;/script&gt; &amp; <mark>lamp</mark>',
    );
    expect(h.description).toBe('it&#39;s a &lt;b&gt;<mark>lamp</mark>&lt;/b&gt;');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('cuts a long description around the first match, marking the cuts', () => {
    const filler = Array.from({ length: 50 }, (_, i) => `w${i}`);
    const description = [...filler.slice(0, 20), 'Café', ...filler.slice(20)].join(' ');
    const h = highlight({ title: 'Table', description }, query('cafe '));
    expect(h.description.startsWith('…w12 ')).toBe(true);
    expect(h.description).toContain('<mark>Café</mark>');
    expect(h.description.endsWith('w40…')).toBe(true);
  });

  it('starts the snippet at the beginning when nothing in the description matches', () => {
    const h = highlight({ title: 'Lamp', description: 'Short text.' }, query('lamp '));
    expect(h).toEqual({ title: '<mark>Lamp</mark>', description: 'Short text.' });
  });
});
