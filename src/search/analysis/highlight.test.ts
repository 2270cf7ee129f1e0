import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../web/html.js';
import { highlight, withinEdits } from './highlight.js';
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

  it("marks the searchable attributes' whole values, escaped, and only theirs (ADR 0042)", () => {
    const offer = {
      title: 'Portable radio',
      description: 'Small.',
      attributes: { brand: 'Zénith <Co>', colour: 'zenith', year: 2020 },
    };
    const h = highlight(offer, query('zenith 2020 '), [], ['brand', 'model', 'year']);
    expect(h.attributes).toEqual({ brand: '<mark>Zénith</mark> &lt;Co&gt;', year: '<mark>2020</mark>' });
    expect(highlight(offer, query('zenith '))).not.toHaveProperty('attributes');
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

  it('marks words a typo away from a typed word of 5+ letters, the word being typed included', () => {
    const h = highlight(
      { title: 'Four dining chairs', description: 'A refrigerator, barely used.' },
      query('chiars refrigerater lamb'),
    );
    expect(h.title).toBe('Four dining <mark>chairs</mark>');
    expect(h.description).toBe('A <mark>refrigerator</mark>, barely used.');
    // Four letters: exact only ("lamb" is not "lamp").
    expect(highlight({ title: 'Brass lamp', description: '' }, query('lamb ')).title).toBe('Brass lamp');
    // The prefix being typed, one typo in: "dinin" → "dining", "dinni" → "dining".
    expect(highlight({ title: 'Dining table', description: '' }, query('dinni')).title).toBe(
      '<mark>Dining</mark> table',
    );
  });

  it('marks a number and its unit as one piece, however the unit is written (ADR 0033)', () => {
    const title = (text: string, q: string) => highlight({ title: text, description: '' }, query(q)).title;
    expect(title('6ft lightning cable', '6ft')).toBe('<mark>6ft</mark> lightning cable');
    expect(title('Tree 6 feet tall', '6ft')).toBe('Tree <mark>6 feet</mark> tall');
    expect(title("Ladder 6'", '6ft ')).toBe('Ladder <mark>6&#39;</mark>');
    expect(title('Cable 6-foot', '6 feet ')).toBe('Cable <mark>6-foot</mark>');
    expect(title('iPhone 32GB black', '32 gb')).toBe('iPhone <mark>32GB</mark> black');
    expect(title('SanDisk 32 GB card', '32 gb')).toBe('SanDisk <mark>32 GB</mark> card');
    expect(title('Phone 5.5 inch', '5.5 inch ')).toBe('Phone <mark>5.5 inch</mark>');
    // A unit symbol, not the punctuation after it; two primes are one inch.
    expect(title('TV 55". Wall mount', '55 inch ')).toBe('TV <mark>55&quot;</mark>. Wall mount');
    expect(title('TV 55′′ black', '55 inch ')).toBe('TV <mark>55′′</mark> black');
  });

  it('joins only what the text rules read as a unit right after a number', () => {
    const title = (text: string, q: string) => highlight({ title: text, description: '' }, query(q)).title;
    // `3 in 1` is no inch: each number marked alone, `in` (a stop word) not at all.
    expect(title('Charger 3 in 1', '3 in 1 ')).toBe('Charger <mark>3</mark> in <mark>1</mark>');
    // Not a unit, or not right after the number: nothing joined.
    expect(title('Table 6 chairs', '6 ')).toBe('Table <mark>6</mark> chairs');
    expect(title('Size 6, feet first', '6 ')).toBe('Size <mark>6</mark>, feet first');
    expect(title('Lamp" feet', 'lamp ')).toBe('<mark>Lamp</mark>&quot; feet');
    expect(title('Boots 44', '44 ')).toBe('Boots <mark>44</mark>');
    // The piece is marked when its number or its unit matched, and only then.
    expect(title('Cable 2 m long', 'cable ')).toBe('<mark>Cable</mark> 2 m long');
    expect(title('Cable 2 metres', '2 m ')).toBe('Cable <mark>2 metres</mark>');
  });

  it('counts edits as the typo rules do (a transposition is one edit)', () => {
    expect(withinEdits('chiars', 'chairs', 1)).toBe(true);
    expect(withinEdits('chiarz', 'chairs', 1)).toBe(false);
    expect(withinEdits('refrigerater', 'refrigerator', 2)).toBe(true);
    expect(withinEdits('abc', 'abc', 0)).toBe(true);
    expect(withinEdits('abc', 'abd', 0)).toBe(false);
  });
});
