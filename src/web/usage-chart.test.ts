import { describe, expect, it } from 'vitest';
import { niceCeiling, usageChart } from './usage-chart.js';

describe('usage chart', () => {
  it('rounds the y axis up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 7, 10, 11, 199, 200, 201, 4_900].map(niceCeiling)).toEqual([
      1, 1, 5, 10, 10, 20, 200, 200, 500, 5_000,
    ]);
  });

  it('labels both axes: requests at 0, half and top; first, middle and last day', () => {
    const days = Array.from({ length: 30 }, (_, i) => ({
      day: `2026-11-${String(i + 1).padStart(2, '0')}`,
      requests: i === 9 ? 1_234 : i,
      errors: i === 9 ? 34 : 0,
      byStatusClass: {},
    }));
    const svg = usageChart(days).toString();
    expect(svg).toContain('>requests / day</text>');
    for (const label of ['>0</text>', '>1,000</text>', '>2,000</text>']) expect(svg).toContain(label);
    for (const label of ['>11-01</text>', '>11-15</text>', '>11-30</text>']) expect(svg).toContain(label);
    expect(svg).toContain('<title>2026-11-10: 1,234 requests, 34 errors</title>');
    expect(svg).toContain('at most 1,234 in a day');
  });
});
