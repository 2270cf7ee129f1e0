import type { OfferInput } from '../src/offers/offer-input.js';
import { isStopWord, words } from '../src/search/analysis/text.js';

/**
 * A saved search as an end user saves one (bench/webhooks.ts): specific. It names what a seeded
 * offer is, in the words of its title (its longest word and two others) and one of its
 * description (all required, as search requires them), in its city, often in its category
 * (one in two), with a price ceiling near its price (seven in ten, 1.0–1.3 times it) and
 * sometimes a floor (three in ten, 0.7 times it). `i` varies the choices deterministically.
 */
export function benchSavedQuery(offer: OfferInput, i: number): Record<string, unknown> {
  const city = words(offer.location.city);
  const ranked = (text: string, min: number) =>
    [
      ...new Set(
        words(text).filter((w) => w.length >= min && !isStopWord(w) && !city.includes(w) && !/[0-9]/.test(w)),
      ),
    ].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const title = ranked(offer.title, 4);
  const others = title.slice(1);
  const picked = [title[0] ?? 'bike'];
  for (let k = 0; k < 2 && k < others.length; k += 1)
    picked.push(others[(i + k * 3) % others.length] as string);
  const description = ranked(offer.description ?? '', 6).filter((w) => !picked.includes(w));
  if (description.length > 0) picked.push(description[(i >> 1) % description.length] as string);
  const price = Number(offer.price?.amount ?? 0);
  return {
    q: [...new Set(picked)].join(' '),
    city: offer.location.city,
    ...(i % 4 < 2 ? { category: [offer.category] } : {}),
    ...(i % 10 < 7 && price > 0 ? { priceMax: (price * (1 + (i % 4) / 10)).toFixed(2) } : {}),
    ...(i % 10 >= 7 && price > 0 ? { priceMin: (price * 0.7).toFixed(2) } : {}),
  };
}
