/**
 * Vocabulary for the synthetic offer generator (seed.ts).
 *
 * Everything here is plain data so realism can be tuned without touching the
 * generator. Templates use `{slot}` placeholders that seed.ts compiles once at
 * load time; `{slot:n}` groups thousands ("84,000") and `{slot:a}` prefixes the
 * indefinite article ("an accountant"). Slots: adj, noun, brand, item (brand +
 * noun), extra, qual, cond, city, country, lang, years, km, days, pct, or any
 * attribute key of the item. seed.ts rejects, at load, templates that reference
 * a slot an item cannot always fill and titles that could leave 3–9 words.
 *
 * Prices are in EUR-equivalent units and scaled by the country's `eurRate`, so a
 * car in Tokyo costs yen-like amounts instead of the same number in JPY.
 */

export type CategoryKind = 'goods' | 'vehicle' | 'property' | 'job' | 'service';
export type AttributeValue = string | number;

/** How one attribute value is drawn; `p` is the chance the key is present at all. */
export type AttributeSpec = { readonly key: string; readonly p: number } & (
  | { readonly kind: 'const'; readonly value: AttributeValue }
  | { readonly kind: 'enum'; readonly values: readonly AttributeValue[] }
  | { readonly kind: 'int'; readonly min: number; readonly max: number; readonly step: number }
  /** Model year, up to `maxAge` years before the anchor year. */
  | { readonly kind: 'year'; readonly maxAge: number }
  /** Grows with the age derived from `yearKey` (mileage of a car). */
  | {
      readonly kind: 'per-year';
      readonly yearKey: string;
      readonly min: number;
      readonly max: number;
      readonly step: number;
    }
  /** Grows with a numeric attribute `unitKey` (area per room). */
  | {
      readonly kind: 'per-unit';
      readonly unitKey: string;
      readonly min: number;
      readonly max: number;
      readonly step: number;
    }
  /** The brand chosen for the title; absent when the title has none. */
  | { readonly kind: 'brand' }
  /** The condition that also drives the description's condition sentence. */
  | { readonly kind: 'condition' }
  /** The country's language with probability `localShare`, otherwise English. */
  | { readonly kind: 'language'; readonly localShare: number }
);

export const fixed = (key: string, value: AttributeValue): AttributeSpec => ({
  key,
  p: 1,
  kind: 'const',
  value,
});
export const oneOf = (key: string, values: readonly AttributeValue[], p = 1): AttributeSpec => ({
  key,
  p,
  kind: 'enum',
  values,
});
export const intRange = (key: string, min: number, max: number, step = 1, p = 1): AttributeSpec => ({
  key,
  p,
  kind: 'int',
  min,
  max,
  step,
});
export const modelYear = (key: string, maxAge: number): AttributeSpec => ({
  key,
  p: 1,
  kind: 'year',
  maxAge,
});
export const perYear = (
  key: string,
  yearKey: string,
  min: number,
  max: number,
  step: number,
): AttributeSpec => ({ key, p: 1, kind: 'per-year', yearKey, min, max, step });
export const perUnit = (
  key: string,
  unitKey: string,
  min: number,
  max: number,
  step: number,
): AttributeSpec => ({ key, p: 1, kind: 'per-unit', unitKey, min, max, step });
/** Removes a category attribute that makes no sense for one item (a scarf has no size). */
export const omit = (key: string): AttributeSpec => ({ key, p: 0, kind: 'const', value: '' });
export const brandAttr = (key = 'brand'): AttributeSpec => ({ key, p: 1, kind: 'brand' });
export const conditionAttr = (p = 1): AttributeSpec => ({ key: 'condition', p, kind: 'condition' });
export const languageAttr = (localShare: number): AttributeSpec => ({
  key: 'language',
  p: 1,
  kind: 'language',
  localShare,
});

export interface CategoryItem {
  readonly noun: string;
  readonly brands?: readonly string[];
  /** Replaces the category extras when the generic ones would not fit. */
  readonly extras?: readonly string[];
  readonly qualifier?: string;
  /** Narrower EUR range than the category's; must lie inside it. */
  readonly price?: readonly [number, number];
  /** Added to the category attributes; a same-key spec replaces the category one. */
  readonly attributes?: readonly AttributeSpec[];
}

export interface CategorySpec {
  readonly slug: string;
  readonly kind: CategoryKind;
  /** Relative frequency; marketplaces have far more gadgets than houses. */
  readonly weight: number;
  readonly price: readonly [number, number];
  /** Chance of naming a brand when the item has brands. */
  readonly brandRate: number;
  /** `after` reads better for job specialisations and book topics. */
  readonly brandPosition: 'before' | 'after';
  readonly adjectives: readonly string[];
  readonly extras: readonly string[];
  readonly titles: readonly string[];
  readonly brandTitles: readonly string[];
  readonly attributes: readonly AttributeSpec[];
  readonly details: readonly string[];
  /** Second half of shop names for publishers specialised in this category. */
  readonly shopWords: readonly string[];
  readonly items: readonly CategoryItem[];
}

export interface Sentence {
  readonly text: string;
  /** Tag this sentence makes plausible; the generator usually adds it. */
  readonly tag?: string;
}

export interface ConditionSpec {
  readonly value: string;
  readonly label: string;
  readonly weight: number;
  readonly sentences: readonly Sentence[];
}

export interface CountrySpec {
  readonly code: string;
  readonly name: string;
  readonly currency: string;
  /** Approximate units of `currency` per EUR, rounded; only for plausible price levels. */
  readonly eurRate: number;
  readonly language: string;
}

export interface CitySpec {
  readonly name: string;
  readonly region: string | null;
  readonly country: string;
  readonly lat: number;
  readonly lon: number;
  /** Rough metro size; bigger cities get more offers. */
  readonly weight: number;
}

export interface TagSpec {
  readonly slug: string;
  readonly kinds: readonly CategoryKind[];
  /** Never drawn at random, only when a sentence or attribute implies it, so it cannot contradict the text. */
  readonly implied?: boolean;
}

/** Attribute values that imply a tag (a remote job is remote-friendly). */
export interface AttributeTag {
  readonly key: string;
  readonly value: AttributeValue;
  readonly tag: string;
}

const ALL_KINDS: readonly CategoryKind[] = ['goods', 'vehicle', 'property', 'job', 'service'];

export const CONDITIONS: readonly ConditionSpec[] = [
  {
    value: 'new',
    label: 'brand new',
    weight: 8,
    sentences: [
      { text: 'Brand new and still sealed in the original packaging.', tag: 'original-box' },
      { text: 'Never used, it was bought twice by mistake.' },
      { text: 'New and unused, the receipt is included.', tag: 'receipt-included' },
    ],
  },
  {
    value: 'like-new',
    label: 'like new',
    weight: 22,
    sentences: [
      { text: 'In excellent condition, used only a handful of times.', tag: 'like-new' },
      { text: 'Like new, with no visible signs of wear.', tag: 'like-new' },
      { text: 'Practically unused and in excellent condition.' },
    ],
  },
  {
    value: 'very-good',
    label: 'very good condition',
    weight: 30,
    sentences: [
      { text: 'In very good condition with only light signs of use.' },
      { text: 'Well looked after and still in excellent condition.' },
      { text: 'Very good condition, from a smoke-free home.', tag: 'smoke-free-home' },
    ],
  },
  {
    value: 'good',
    label: 'good condition',
    weight: 30,
    sentences: [
      { text: 'In good condition with some normal signs of wear.' },
      { text: 'A few small marks, nothing that affects use.' },
      { text: 'Good condition overall, see the photos for details.' },
    ],
  },
  {
    value: 'fair',
    label: 'fair condition',
    weight: 10,
    sentences: [
      { text: 'Clearly used, but it still has plenty of life left.' },
      { text: 'Fair condition, priced to sell quickly.', tag: 'price-drop' },
      { text: 'Needs a little attention, ideal for someone handy.' },
    ],
  },
];

export interface KindPools {
  readonly openers: readonly Sentence[];
  /** Second sentence; goods use their condition's sentences instead. */
  readonly status: readonly Sentence[];
  readonly logistics: readonly Sentence[];
  readonly closings: readonly Sentence[];
  /** Deliberately rare words so full-text search has a long tail. */
  readonly rare: readonly Sentence[];
}

export const KIND_POOLS: Readonly<Record<CategoryKind, KindPools>> = {
  goods: {
    openers: [
      { text: 'Selling my {item} because I no longer need it.' },
      { text: 'Offering my {item} after moving to a smaller apartment.' },
      { text: 'Selling my {item}, which served me well for {years} years.' },
      { text: 'We are clearing out the house, so the {item} must go.' },
      { text: 'Great {item} looking for a new home.' },
      { text: 'Decluttering before a move abroad, so my {item} must find a new owner.' },
      { text: 'Selling our {item} since we upgraded.' },
      { text: 'For sale: {item}, well looked after.' },
    ],
    status: [],
    logistics: [
      { text: 'Pickup only from {city}.', tag: 'pickup-only' },
      { text: 'Free delivery within {km} km of {city}.', tag: 'free-delivery' },
      { text: 'Can ship anywhere in {country} for a small fee.', tag: 'shipping-available' },
      { text: 'Collection from {city} centre or delivery for a small fee.' },
      { text: 'Delivery is possible on weekends if you cover the fuel.' },
      { text: 'Happy to meet halfway for the handover.' },
      { text: 'Pickup in {city}, and I can help carry it to your car.', tag: 'pickup-only' },
    ],
    closings: [
      { text: 'Price is negotiable for a quick pickup.', tag: 'negotiable' },
      { text: 'Message me for more photos or questions.' },
      { text: 'First come, first served.' },
      { text: 'No holds without a deposit, thanks for understanding.' },
      { text: 'Cash or bank transfer on pickup.' },
      { text: 'Feel free to make a reasonable offer.', tag: 'negotiable' },
    ],
    rare: [
      { text: 'The finish has a warm patina that collectors appreciate.', tag: 'vintage' },
      { text: 'Stored in a climate-controlled attic, away from damp.' },
      { text: 'It still carries a faint scent of cedar from the old cabinet.' },
      { text: 'Inherited from my grandmother, who treasured it for decades.' },
      { text: 'The marquetry on the side panels is completely intact.' },
      { text: 'Includes a handwritten provenance note from the first owner.', tag: 'collectors-item' },
      { text: 'There is a small chip in the enamel, barely noticeable.' },
      { text: 'Comes with a spare set of brass fittings.' },
      { text: 'Ideal for a hobbyist restoring retro equipment.' },
      { text: 'Survived three house moves without a single scratch.' },
      { text: 'The lacquer has aged into a lovely amber tone.' },
      { text: 'Tested with a multimeter before listing.' },
      { text: 'Crafted by a small workshop near the Dolomites.', tag: 'handmade' },
      { text: 'Kept under a dust cover between uses.' },
      { text: 'Suits anyone who likes quirky mid-century pieces.' },
      { text: 'The upholstery was professionally refreshed last spring.' },
      { text: 'Hand-stitched seams, clearly made to last.', tag: 'handmade' },
      { text: 'Slight discoloration from sunlight on one side.' },
      { text: 'Barely audible even at full speed.' },
      { text: 'Weatherproof and tested through a Nordic winter.' },
      { text: 'Originally part of a theatre prop collection.' },
      { text: 'Calibrated by a technician earlier this year.' },
      { text: 'Made from reclaimed timber and natural oils.', tag: 'eco' },
    ],
  },
  vehicle: {
    openers: [
      { text: 'Selling our {year} {item} because we bought a bigger car.' },
      { text: 'Private sale of {year:a} {item} with {mileageKm:n} km on the clock.' },
      { text: 'Our reliable {item} is looking for a new driver.' },
      { text: 'Offering this {item} because I now commute by train.' },
      { text: 'Selling the family {item}, first registered in {year}.' },
    ],
    status: [
      {
        text: 'Full service history, and the last inspection was passed without remarks.',
        tag: 'service-history',
      },
      { text: 'Timing belt and brakes were replaced recently.' },
      { text: 'A few small scratches on the rear bumper, otherwise in excellent condition.' },
      { text: 'Non-smoker vehicle, always parked in a garage.' },
      { text: 'Two keys, the manuals and all invoices are included.' },
      { text: 'Minor dent on the driver door, priced accordingly.', tag: 'price-drop' },
      { text: 'Only one previous owner and never involved in an accident.', tag: 'one-owner' },
    ],
    logistics: [
      { text: 'Test drives are welcome in {city} by appointment.' },
      { text: 'Viewing in {city}, serious buyers only.' },
      { text: 'I can help with the registration paperwork.' },
      { text: 'Delivery within {km} km of {city} can be arranged.' },
    ],
    closings: [
      { text: 'Price is negotiable after a test drive.', tag: 'negotiable' },
      { text: 'No trades, please.' },
      { text: 'Call or message me for the full inspection report.' },
    ],
    rare: [
      { text: 'Sunroof, tow bar and heated seats are included.' },
      { text: 'Comes with a roof box and a set of winter tyres.', tag: 'winter-tyres' },
      { text: 'The upholstery is spotless thanks to seat covers.' },
      { text: 'The odometer reading is backed by stamped service records.' },
      { text: 'Rust protection was applied underneath last autumn.' },
    ],
  },
  property: {
    openers: [
      { text: 'Bright {noun} {qual} in a quiet street of {city}.' },
      { text: 'We are offering {noun:a} {qual} close to public transport in {city}.' },
      { text: 'Well located {noun} {qual}, within walking distance of shops and schools.' },
      { text: 'Charming {noun} {qual} in one of the most popular areas of {city}.' },
    ],
    status: [
      { text: 'It was renovated {years} years ago and is in excellent condition.' },
      { text: 'Efficient windows and a modern heating system keep running costs low.', tag: 'eco' },
      { text: 'The building has an elevator and a shared bike room.', tag: 'elevator' },
      { text: 'Large windows give the space plenty of natural light.' },
      { text: 'Available from the first day of next month.', tag: 'urgent' },
    ],
    logistics: [
      { text: 'Viewings can be arranged on weekday evenings and Saturdays.' },
      { text: 'Please send a short introduction to arrange a viewing.' },
      { text: 'Agency fees apply, details on request.' },
      { text: 'No agency fees, directly from the owner.' },
    ],
    closings: [
      { text: 'The price is negotiable for a quick decision.', tag: 'negotiable' },
      { text: 'A floor plan is available on request.' },
      { text: 'Serious enquiries only, please.' },
    ],
    rare: [
      { text: 'The courtyard has a fig tree and a small fountain.' },
      { text: 'Original parquet floors and stucco ceilings throughout.' },
      { text: 'A rooftop terrace looks out over the harbour.' },
      { text: 'The botanical garden is a short stroll away.', tag: 'garden' },
      { text: 'The cellar has room for bicycles and a wine rack.' },
    ],
  },
  job: {
    openers: [
      { text: 'We are looking for {adj:a} {item} to join our team in {city}.' },
      { text: 'Our growing company in {city} is hiring {noun:a}.' },
      { text: 'Are you {noun:a} who wants to make a difference?' },
      { text: 'A friendly team in {city} needs {noun:a} as soon as possible.', tag: 'urgent' },
    ],
    status: [
      { text: 'We offer {contract:a} contract with {hoursPerWeek} hours per week.' },
      { text: 'The role is {workMode}, with a friendly and supportive team.' },
      { text: 'Salary is paid monthly and reviewed every year.' },
      { text: 'Training is provided during the first weeks.', tag: 'training-provided' },
    ],
    logistics: [
      { text: 'Send your CV and a short cover letter to apply.' },
      { text: 'Applications are reviewed on a rolling basis.' },
      { text: 'Interviews take place in {city} or by video call.' },
    ],
    closings: [
      { text: 'We look forward to hearing from you.' },
      { text: 'Everyone is welcome to apply, whatever their background.' },
      { text: 'Start date is flexible.', tag: 'flexible-hours' },
    ],
    rare: [
      { text: 'We offer a sabbatical option after five years.' },
      { text: 'Our office has an in-house barista and a rooftop garden.' },
      { text: 'Dogs are welcome in the office on Fridays.' },
      { text: 'There is a generous budget for conferences and books.' },
      { text: 'We can help with relocation and visa paperwork.', tag: 'relocation-support' },
    ],
  },
  service: {
    openers: [
      { text: 'Offering {item} in {city} and the surrounding area.' },
      { text: 'Local {item} backed by {years} years of experience.' },
      { text: 'I provide {item} for private households and small businesses.' },
      { text: 'Need help? I offer {item} at fair prices.' },
    ],
    status: [
      { text: 'Prices are per {rateUnit} and include basic materials.' },
      { text: 'Fully insured and happy to provide references.', tag: 'insured' },
      { text: 'Availability: {availability}.' },
      { text: 'Certified and trained to current safety standards.', tag: 'certified' },
    ],
    logistics: [
      { text: 'I travel up to {km} km from {city}.' },
      { text: 'Free quote after a short phone call.', tag: 'free-quote' },
      { text: 'Same-day appointments are often possible.', tag: 'same-day' },
    ],
    closings: [
      { text: 'Send me a message and I will reply within a day.' },
      { text: 'Discounts for regular bookings.', tag: 'negotiable' },
      { text: 'Popular slots fill up quickly, so book early.' },
    ],
    rare: [
      { text: 'Eco-friendly products only, no harsh chemicals.', tag: 'eco' },
      { text: 'Bilingual service available on request.' },
      { text: 'I also know basic sign language.' },
      { text: 'Antique restoration is a speciality of mine.' },
      { text: 'I carry a defibrillator and first aid kit in the van.' },
    ],
  },
};

const GOODS_TITLES = ['{adj} {noun} {extra}', '{adj} {noun} for sale', '{noun} {extra}, {cond}'];
const GOODS_BRAND_TITLES = ['{item} {extra}', '{adj} {item}', '{item}, {cond}'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const SHOE_SIZES = [36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46];
const COLORS = ['black', 'white', 'navy', 'grey', 'beige', 'red', 'green', 'brown', 'blue'];
const ROOMS_AND_AREA = [intRange('rooms', 1, 5), perUnit('areaM2', 'rooms', 18, 32, 1)];

export const CATEGORIES: readonly CategorySpec[] = [
  {
    slug: 'electronics',
    kind: 'goods',
    weight: 14,
    price: [15, 2500],
    brandRate: 0.75,
    brandPosition: 'before',
    adjectives: [
      'barely used',
      'refurbished',
      'like-new',
      'unopened',
      'fully working',
      'compact',
      'high-end',
      'budget',
    ],
    extras: ['with original box', 'with charger', 'with receipt', 'under warranty', 'with protective case'],
    titles: GOODS_TITLES,
    brandTitles: GOODS_BRAND_TITLES,
    attributes: [brandAttr(), conditionAttr()],
    details: [
      'All functions were tested before listing.',
      'Factory reset and ready for a new owner.',
      'Original cables are included.',
      'The receipt is available as proof of purchase.',
      'Still covered by the manufacturer warranty for {days} months.',
    ],
    shopWords: ['Electronics', 'Tech Corner', 'Gadget Exchange', 'Digital'],
    items: [
      {
        noun: 'laptop',
        brands: ['Lenovo ThinkPad T14', 'Apple MacBook Air', 'Dell XPS 13', 'HP EliteBook', 'Asus ZenBook'],
        price: [150, 2200],
        attributes: [oneOf('ramGb', [8, 16, 32])],
      },
      {
        noun: 'smartphone',
        brands: ['Samsung Galaxy S21', 'Apple iPhone 12', 'Google Pixel 7', 'Fairphone 4'],
        price: [60, 1100],
        attributes: [oneOf('storageGb', [64, 128, 256])],
      },
      {
        noun: 'tablet',
        brands: ['Apple iPad Air', 'Samsung Galaxy Tab', 'Lenovo Tab P11'],
        price: [80, 900],
        attributes: [oneOf('storageGb', [64, 128, 256])],
      },
      {
        noun: 'mirrorless camera',
        brands: ['Sony Alpha A6400', 'Fujifilm X-T30', 'Canon EOS R10', 'Nikon Z50'],
        price: [250, 2500],
        extras: ['with kit lens', 'with two batteries', 'with camera bag'],
      },
      {
        noun: 'gaming console',
        brands: ['Nintendo Switch', 'Sony PlayStation 5', 'Xbox Series S'],
        price: [120, 550],
        extras: ['with two controllers', 'with three games', 'with original box'],
      },
      {
        noun: 'wireless headphones',
        brands: ['Sony WH-1000XM4', 'Bose QuietComfort 45', 'Sennheiser Momentum 4'],
        price: [40, 350],
      },
      {
        noun: 'smartwatch',
        brands: ['Garmin Forerunner 255', 'Apple Watch SE', 'Samsung Galaxy Watch'],
        price: [50, 450],
      },
      { noun: '27-inch 4K monitor', brands: ['Dell UltraSharp', 'LG', 'Samsung'], price: [120, 700] },
      {
        noun: 'bluetooth speaker',
        brands: ['JBL Flip 5', 'Bose SoundLink', 'Marshall Emberton'],
        price: [25, 250],
      },
      { noun: 'e-reader', brands: ['Kobo Clara', 'Kindle Paperwhite', 'PocketBook Era'], price: [40, 220] },
      {
        noun: 'mechanical keyboard',
        brands: ['Keychron K2', 'Logitech G915', 'Ducky One 3'],
        price: [35, 220],
      },
      { noun: 'camera drone', brands: ['DJI Mini 3', 'DJI Air 2S'], price: [200, 1300] },
      {
        noun: 'robot vacuum',
        brands: ['Roborock S7', 'iRobot Roomba i7', 'Ecovacs Deebot'],
        price: [90, 700],
      },
    ],
  },
  {
    slug: 'furniture',
    kind: 'goods',
    weight: 10,
    price: [10, 3500],
    brandRate: 0.3,
    brandPosition: 'before',
    adjectives: ['vintage', 'solid', 'handmade', 'modern', 'scandinavian', 'rustic', 'mid-century', 'sturdy'],
    extras: ['in great shape', 'ready for pickup', 'easy to disassemble'],
    titles: ['{adj} {material} {noun} {extra}', '{adj} {material} {noun}', '{material} {noun}, {cond}'],
    brandTitles: ['{item} in {material}', '{adj} {item}', '{item}, {cond}'],
    attributes: [
      oneOf('material', ['oak', 'pine', 'walnut', 'beech', 'metal']),
      conditionAttr(),
      intRange('widthCm', 40, 220, 10, 0.6),
      brandAttr(),
    ],
    details: [
      'Smoke-free and pet-free home.',
      'Dimensions are in the last photo.',
      'Screws and assembly instructions are included.',
      'The surface was oiled {days} weeks ago.',
    ],
    shopWords: ['Furniture', 'Home Outlet', 'Interiors', 'Living'],
    items: [
      {
        noun: 'dining table',
        brands: ['IKEA Ekedalen'],
        price: [40, 1800],
        extras: ['with six chairs', 'with four chairs', 'with matching bench', 'fully extendable'],
      },
      {
        noun: 'three-seater sofa',
        brands: ['IKEA Kivik', 'Muuto Outline'],
        price: [60, 3500],
        attributes: [oneOf('material', ['leather', 'velvet', 'linen', 'fabric'])],
      },
      { noun: 'bookshelf', brands: ['IKEA Kallax', 'IKEA Billy', 'String'], price: [10, 600] },
      { noun: 'wardrobe', brands: ['IKEA Pax'], price: [30, 1200] },
      { noun: 'writing desk', brands: ['IKEA Alex', 'Hay'], price: [25, 900] },
      {
        noun: 'office chair',
        brands: ['Herman Miller Aeron', 'Steelcase Leap', 'IKEA Markus'],
        price: [25, 900],
        attributes: [oneOf('material', ['mesh', 'leather', 'fabric'])],
      },
      {
        noun: 'bed frame',
        brands: ['IKEA Malm', 'IKEA Hemnes'],
        price: [40, 1200],
        extras: ['with slatted base', 'with storage drawers', 'including mattress'],
      },
      { noun: 'chest of drawers', brands: ['IKEA Malm', 'IKEA Hemnes'], price: [20, 700] },
      {
        noun: 'coffee table',
        brands: ['Muuto', 'Hay'],
        price: [15, 600],
        attributes: [oneOf('material', ['oak', 'walnut', 'glass', 'marble', 'metal'])],
      },
      {
        noun: 'armchair',
        brands: ['Vitra', 'IKEA Poang'],
        price: [30, 2500],
        attributes: [oneOf('material', ['leather', 'velvet', 'rattan', 'fabric'])],
      },
      { noun: 'sideboard', brands: ['IKEA Besta'], price: [40, 1800] },
      { noun: 'bar stools', price: [20, 400], extras: ['set of two', 'set of four'] },
    ],
  },
  {
    slug: 'vehicles',
    kind: 'vehicle',
    weight: 8,
    price: [800, 65000],
    brandRate: 1,
    brandPosition: 'before',
    adjectives: [
      'well maintained',
      'reliable',
      'economical',
      'garage kept',
      'sporty',
      'spacious',
      'clean',
      'first-owner',
    ],
    extras: ['with full service history', 'with new tyres', 'ready to drive'],
    titles: ['{adj} {year} {noun} for sale'],
    brandTitles: [
      '{year} {brand}, {mileageKm:n} km',
      '{brand} {year}, {fuel}, {mileageKm:n} km',
      '{adj} {year} {item}',
      '{item}, {year}, {transmission}',
    ],
    attributes: [
      modelYear('year', 18),
      perYear('mileageKm', 'year', 6000, 22000, 1000),
      oneOf('fuel', ['petrol', 'diesel', 'hybrid', 'lpg']),
      oneOf('transmission', ['manual', 'automatic']),
    ],
    details: [
      'Air conditioning, cruise control and parking sensors.',
      'Bluetooth audio and a reversing camera are fitted.',
      'Next technical inspection is due in {days} months.',
      'Fuel consumption is low on the motorway.',
    ],
    shopWords: ['Motors', 'Auto Centre', 'Car Trading', 'Garage'],
    items: [
      {
        noun: 'hatchback',
        brands: ['Volkswagen Golf', 'Ford Focus', 'Opel Astra', 'Peugeot 308', 'Toyota Corolla', 'Seat Leon'],
        price: [1500, 28000],
      },
      {
        noun: 'estate car',
        brands: ['Skoda Octavia Combi', 'Volvo V60', 'Audi A4 Avant', 'BMW 3 Series Touring'],
        price: [2000, 38000],
      },
      {
        noun: 'SUV',
        brands: ['Toyota RAV4', 'Nissan Qashqai', 'Kia Sportage', 'Hyundai Tucson', 'Volkswagen Tiguan'],
        price: [4000, 45000],
      },
      {
        noun: 'city car',
        brands: ['Fiat 500', 'Toyota Aygo', 'Volkswagen Up', 'Renault Clio', 'Hyundai i10'],
        price: [1200, 16000],
      },
      {
        noun: 'electric car',
        brands: ['Tesla Model 3', 'Renault Zoe', 'Nissan Leaf', 'Hyundai Kona Electric', 'Volkswagen ID.3'],
        price: [9000, 45000],
        attributes: [modelYear('year', 8), fixed('fuel', 'electric'), fixed('transmission', 'automatic')],
      },
      {
        noun: 'motorcycle',
        brands: ['Honda CB500F', 'Yamaha MT-07', 'Kawasaki Z650', 'Triumph Street Twin'],
        price: [2000, 18000],
        attributes: [
          perYear('mileageKm', 'year', 1500, 7000, 500),
          fixed('fuel', 'petrol'),
          fixed('transmission', 'manual'),
        ],
      },
      {
        noun: 'scooter',
        brands: ['Vespa Primavera 125', 'Piaggio Liberty 50', 'Honda PCX 125', 'Yamaha NMAX'],
        price: [800, 5000],
        attributes: [
          perYear('mileageKm', 'year', 1000, 5000, 500),
          fixed('fuel', 'petrol'),
          fixed('transmission', 'automatic'),
        ],
      },
      {
        noun: 'campervan',
        brands: ['Volkswagen California', 'Ford Transit Custom', 'Fiat Ducato'],
        price: [15000, 65000],
        attributes: [fixed('fuel', 'diesel')],
      },
      {
        noun: 'van',
        brands: ['Ford Transit', 'Renault Trafic', 'Mercedes Sprinter', 'Citroen Berlingo'],
        price: [3000, 35000],
        attributes: [oneOf('fuel', ['diesel', 'electric'])],
      },
    ],
  },
  {
    slug: 'real-estate',
    kind: 'property',
    weight: 8,
    price: [40, 1500000],
    brandRate: 0,
    brandPosition: 'before',
    adjectives: ['bright', 'spacious', 'cosy', 'renovated', 'quiet', 'modern', 'central', 'sunny'],
    extras: ['near the park', 'with balcony', 'with garden'],
    titles: [
      '{adj} {rooms}-room {noun} {qual}',
      '{rooms}-room {noun} in {city}',
      '{noun} {qual} in {city}, {areaM2} m²',
      '{adj} {noun} {extra}',
    ],
    brandTitles: [],
    attributes: [oneOf('energyClass', ['A', 'B', 'C', 'D', 'E', 'F'], 0.6)],
    details: [
      'The kitchen was replaced {years} years ago.',
      'Pets are allowed after consultation.',
      'A parking space can be rented separately.',
      'Bicycle storage and a laundry room are in the basement.',
    ],
    shopWords: ['Realty', 'Property Partners', 'Estates', 'Homes'],
    items: [
      {
        noun: 'apartment',
        qualifier: 'for rent',
        price: [450, 3200],
        attributes: [fixed('listing', 'rent'), ...ROOMS_AND_AREA],
      },
      {
        noun: 'apartment',
        qualifier: 'for sale',
        price: [90000, 950000],
        attributes: [fixed('listing', 'sale'), ...ROOMS_AND_AREA],
      },
      {
        noun: 'house',
        qualifier: 'for rent',
        price: [900, 4500],
        attributes: [
          fixed('listing', 'rent'),
          intRange('rooms', 3, 7),
          perUnit('areaM2', 'rooms', 22, 38, 1),
        ],
      },
      {
        noun: 'house',
        qualifier: 'for sale',
        price: [180000, 1500000],
        attributes: [
          fixed('listing', 'sale'),
          intRange('rooms', 3, 8),
          perUnit('areaM2', 'rooms', 22, 40, 1),
        ],
      },
      {
        noun: 'studio',
        qualifier: 'for rent',
        price: [350, 1400],
        attributes: [fixed('listing', 'rent'), intRange('areaM2', 18, 40)],
      },
      {
        noun: 'room',
        qualifier: 'in shared flat',
        price: [250, 900],
        attributes: [fixed('listing', 'rent'), intRange('areaM2', 9, 24)],
      },
      {
        noun: 'office space',
        qualifier: 'for rent',
        price: [600, 6000],
        attributes: [fixed('listing', 'rent'), intRange('areaM2', 30, 400, 5)],
      },
      {
        noun: 'parking space',
        qualifier: 'for rent',
        price: [40, 250],
        extras: ['near the station', 'in underground garage'],
        attributes: [fixed('listing', 'rent'), intRange('areaM2', 11, 16)],
      },
    ],
  },
  {
    slug: 'jobs',
    kind: 'job',
    weight: 7,
    price: [1600, 9500],
    brandRate: 0.6,
    brandPosition: 'after',
    adjectives: ['junior', 'senior', 'mid-level', 'lead', 'trainee', 'experienced', 'entry-level'],
    extras: ['with flexible hours', 'starting immediately'],
    titles: [
      '{adj} {noun} in {city}',
      '{noun} wanted in {city}',
      '{adj} {noun}, {hoursPerWeek} hours per week',
      '{noun} ({workMode}), {contract} contract',
    ],
    brandTitles: ['{adj} {item}', '{item} wanted in {city}'],
    attributes: [
      oneOf('contract', ['permanent', 'fixed-term', 'freelance', 'internship']),
      oneOf('hoursPerWeek', [16, 20, 24, 32, 36, 38, 40]),
      oneOf('workMode', ['on-site', 'hybrid', 'remote']),
      oneOf('startDate', ['immediately', 'next month', 'negotiable'], 0.5),
    ],
    details: [
      'You communicate clearly and enjoy solving problems.',
      'A valid driving licence is an advantage.',
      'Fluency in {lang} is required.',
      'We value curiosity more than a perfect CV.',
    ],
    shopWords: ['Staffing', 'Recruitment', 'Careers', 'Talent'],
    items: [
      {
        noun: 'backend developer',
        brands: ['(TypeScript)', '(Go)', '(Java)', '(Python)', '(Rust)'],
        price: [3000, 8500],
      },
      { noun: 'frontend developer', brands: ['(React)', '(Vue)', '(Angular)'], price: [2800, 7500] },
      { noun: 'data analyst', brands: ['(SQL)', '(Python)', '(Power BI)'], price: [2800, 6800] },
      { noun: 'registered nurse', price: [2400, 5200], attributes: [fixed('workMode', 'on-site')] },
      { noun: 'warehouse associate', price: [1700, 3000], attributes: [fixed('workMode', 'on-site')] },
      { noun: 'barista', price: [1600, 2600], attributes: [fixed('workMode', 'on-site')] },
      { noun: 'accountant', price: [2800, 6000] },
      { noun: 'electrician', price: [2400, 4800], attributes: [fixed('workMode', 'on-site')] },
      { noun: 'delivery driver', price: [1800, 3200], attributes: [fixed('workMode', 'on-site')] },
      {
        noun: 'customer support agent',
        brands: ['(German speaking)', '(French speaking)', '(Spanish speaking)'],
        price: [1900, 3600],
      },
      { noun: 'primary school teacher', price: [2600, 5200], attributes: [fixed('workMode', 'on-site')] },
      { noun: 'graphic designer', price: [2200, 5500] },
      { noun: 'line cook', price: [1700, 3000], attributes: [fixed('workMode', 'on-site')] },
    ],
  },
  {
    slug: 'services',
    kind: 'service',
    weight: 7,
    price: [12, 3000],
    brandRate: 0,
    brandPosition: 'before',
    adjectives: ['affordable', 'reliable', 'professional', 'friendly', 'experienced', 'certified', 'local'],
    extras: ['at fair prices', 'on short notice', 'seven days a week'],
    titles: ['{adj} {item} in {city}', '{item} in {city} and surroundings', '{adj} {item} {extra}'],
    brandTitles: [],
    attributes: [
      oneOf('availability', ['weekdays', 'evenings', 'weekends', 'any day']),
      intRange('serviceRadiusKm', 5, 50, 5, 0.5),
      intRange('experienceYears', 1, 25, 1, 0.5),
    ],
    details: [
      'References from happy customers are available.',
      'I bring my own tools and equipment.',
      'Invoices are provided for every job.',
      'Cancellation is free up to {days} hours in advance.',
    ],
    shopWords: ['Home Services', 'Handyman Co', 'Cleaning Crew', 'Helpers'],
    items: [
      { noun: 'plumbing repairs', price: [40, 120], attributes: [fixed('rateUnit', 'hour')] },
      { noun: 'house cleaning', price: [15, 45], attributes: [fixed('rateUnit', 'hour')] },
      { noun: 'moving help', price: [20, 60], attributes: [fixed('rateUnit', 'hour')] },
      { noun: 'maths tutoring', price: [15, 70], attributes: [fixed('rateUnit', 'session')] },
      { noun: 'language tutoring', price: [15, 60], attributes: [fixed('rateUnit', 'session')] },
      { noun: 'dog walking', price: [12, 35], attributes: [fixed('rateUnit', 'hour')] },
      { noun: 'piano lessons', price: [20, 80], attributes: [fixed('rateUnit', 'session')] },
      { noun: 'guitar lessons', price: [20, 70], attributes: [fixed('rateUnit', 'session')] },
      { noun: 'garden maintenance', price: [20, 55], attributes: [fixed('rateUnit', 'hour')] },
      { noun: 'wedding photography', price: [500, 3000], attributes: [fixed('rateUnit', 'day')] },
      { noun: 'bicycle repair', price: [15, 90], attributes: [fixed('rateUnit', 'job')] },
      { noun: 'tax return help', price: [60, 400], attributes: [fixed('rateUnit', 'job')] },
      { noun: 'furniture assembly', price: [25, 70], attributes: [fixed('rateUnit', 'hour')] },
      { noun: 'website design', price: [300, 2500], attributes: [fixed('rateUnit', 'job')] },
    ],
  },
  {
    slug: 'fashion',
    kind: 'goods',
    weight: 12,
    price: [3, 1200],
    brandRate: 0.6,
    brandPosition: 'before',
    adjectives: [
      'vintage',
      'barely worn',
      'oversized',
      'handmade',
      'classic',
      'warm',
      'lightweight',
      'elegant',
      'retro',
    ],
    extras: ['with tags attached', 'worn twice', 'from a smoke-free home'],
    titles: ['{adj} {color} {noun}, size {size}', '{adj} {noun} {extra}', '{color} {noun}, {cond}'],
    brandTitles: ['{item}, size {size}', '{color} {item}', '{adj} {item}, {cond}'],
    attributes: [oneOf('size', SIZES), oneOf('color', COLORS), conditionAttr(), brandAttr()],
    details: [
      'Fits true to size.',
      'Machine washable at 30 degrees.',
      'Measurements are available on request.',
      'Only worn on {days} occasions.',
    ],
    shopWords: ['Boutique', 'Vintage Clothing', 'Closet', 'Style Studio'],
    items: [
      { noun: 'leather jacket', brands: ['AllSaints', 'Schott'], price: [30, 450] },
      { noun: 'wool coat', brands: ['COS', 'Max Mara', 'Uniqlo'], price: [25, 600] },
      {
        noun: 'running shoes',
        brands: ['Nike Pegasus', 'Asics Gel-Nimbus', 'Adidas Ultraboost'],
        price: [15, 160],
        attributes: [oneOf('size', SHOE_SIZES)],
      },
      { noun: 'summer dress', brands: ['Zara', 'Mango', 'H&M'], price: [5, 120] },
      {
        noun: 'denim jeans',
        brands: ['Levis 501', 'Wrangler', 'Lee'],
        price: [8, 120],
        attributes: [oneOf('size', ['W28', 'W30', 'W32', 'W34', 'W36'])],
      },
      {
        noun: 'winter boots',
        brands: ['Dr. Martens', 'Timberland', 'Sorel'],
        price: [20, 200],
        attributes: [oneOf('size', SHOE_SIZES)],
      },
      { noun: 'silk scarf', price: [5, 150], attributes: [omit('size')] },
      {
        noun: 'leather handbag',
        brands: ['Longchamp', 'Coach', 'Furla'],
        price: [20, 900],
        attributes: [omit('size')],
      },
      { noun: 'two-piece suit', brands: ['Hugo Boss', 'Suitsupply'], price: [40, 700] },
      { noun: 'rain jacket', brands: ['Patagonia', 'Rains', 'Helly Hansen'], price: [15, 250] },
      { noun: 'knit sweater', brands: ['COS', 'Uniqlo', 'Arket'], price: [8, 140] },
      {
        noun: 'wedding dress',
        price: [150, 1200],
        extras: ['with veil', 'altered once', 'professionally cleaned'],
      },
    ],
  },
  {
    slug: 'sports',
    kind: 'goods',
    weight: 8,
    price: [5, 3500],
    brandRate: 0.6,
    brandPosition: 'before',
    adjectives: [
      'lightweight',
      'barely used',
      'professional',
      'durable',
      'foldable',
      'beginner',
      'competition',
    ],
    extras: ['with carry bag', 'ready to use', 'plus accessories'],
    titles: GOODS_TITLES,
    brandTitles: GOODS_BRAND_TITLES,
    attributes: [conditionAttr(), brandAttr()],
    details: [
      'Serviced at the start of this season.',
      'Perfect for beginners and intermediate users.',
      'Used for {years} seasons and well maintained.',
      'Stored indoors all year.',
    ],
    shopWords: ['Sports', 'Bike Shop', 'Outdoor Gear', 'Fitness'],
    items: [
      {
        noun: 'road bike',
        brands: ['Trek Domane', 'Specialized Allez', 'Giant Contend', 'Canyon Endurace'],
        price: [250, 3500],
        attributes: [oneOf('frameSizeCm', [50, 52, 54, 56, 58, 60])],
      },
      {
        noun: 'mountain bike',
        brands: ['Cube Aim', 'Scott Scale', 'Trek Marlin'],
        price: [200, 3000],
        attributes: [oneOf('frameSize', ['S', 'M', 'L', 'XL'])],
      },
      {
        noun: 'tennis racket',
        brands: ['Wilson Blade', 'Head Speed', 'Babolat Pure Drive'],
        price: [20, 220],
      },
      { noun: 'yoga mat', brands: ['Manduka', 'Liforme'], price: [8, 80] },
      { noun: 'dumbbell set', price: [20, 250], attributes: [oneOf('weightKg', [10, 20, 30, 40])] },
      { noun: 'treadmill', brands: ['NordicTrack', 'Kettler'], price: [150, 1500] },
      {
        noun: 'pair of skis',
        brands: ['Rossignol', 'Atomic', 'Salomon'],
        price: [60, 700],
        attributes: [intRange('lengthCm', 150, 185, 5)],
      },
      {
        noun: 'snowboard',
        brands: ['Burton Custom', 'Nitro', 'Jones'],
        price: [60, 500],
        attributes: [intRange('lengthCm', 145, 165, 1)],
      },
      { noun: 'golf club set', brands: ['Callaway', 'TaylorMade', 'Ping'], price: [100, 1200] },
      { noun: 'inflatable kayak', price: [120, 900], extras: ['with paddle', 'with pump and paddle'] },
      {
        noun: 'climbing shoes',
        brands: ['La Sportiva', 'Scarpa'],
        price: [20, 120],
        attributes: [oneOf('size', SHOE_SIZES)],
      },
      { noun: 'rowing machine', brands: ['Concept2 Model D', 'WaterRower'], price: [200, 1100] },
      {
        noun: 'camping tent',
        brands: ['Vaude', 'MSR', 'Coleman'],
        price: [30, 500],
        attributes: [intRange('persons', 1, 6)],
      },
    ],
  },
  {
    slug: 'books',
    kind: 'goods',
    weight: 6,
    price: [1, 250],
    brandRate: 0.6,
    brandPosition: 'after',
    adjectives: ['well read', 'like-new', 'signed', 'first edition', 'illustrated', 'annotated', 'rare'],
    extras: ['in one box', 'as a bundle', 'for book lovers'],
    titles: ['{adj} {noun} {extra}', '{noun} in {language}, {format}', '{noun} {extra}, {cond}'],
    brandTitles: ['{adj} {item}', '{item} in {language}', '{item}, {format}'],
    attributes: [languageAttr(0.7), oneOf('format', ['paperback', 'hardcover']), conditionAttr()],
    details: [
      'No highlighting or notes inside.',
      'Spines are intact and the pages are clean.',
      'Great for a holiday reading list.',
      'Ask me for the full list of titles.',
    ],
    shopWords: ['Books', 'Bookshop', 'Reads', 'Antiquarian'],
    items: [
      { noun: 'crime novels', price: [5, 60], attributes: [intRange('itemCount', 5, 40)] },
      {
        noun: 'cookbook',
        brands: ['on vegetarian cooking', 'on Italian baking', 'on Japanese cuisine'],
        price: [3, 40],
      },
      {
        noun: 'university textbook',
        brands: ['on organic chemistry', 'on macroeconomics', 'on linear algebra', 'on statistics'],
        price: [8, 120],
      },
      { noun: 'picture books', price: [2, 40], attributes: [intRange('itemCount', 3, 25)] },
      { noun: 'comic book collection', price: [10, 250], attributes: [intRange('itemCount', 10, 120)] },
      { noun: 'world atlas', price: [5, 45] },
      {
        noun: 'travel guide',
        brands: ['for Japan', 'for Italy', 'for Scotland', 'for Iceland', 'for Portugal'],
        price: [2, 25],
      },
      { noun: 'poetry anthology', price: [3, 30] },
      { noun: 'fantasy box set', price: [10, 80], attributes: [intRange('itemCount', 3, 7)] },
      { noun: 'encyclopedia set', price: [15, 180], attributes: [intRange('itemCount', 10, 30)] },
      {
        noun: 'language course',
        brands: ['for Spanish', 'for Japanese', 'for French', 'for Swedish'],
        price: [5, 60],
      },
    ],
  },
  {
    slug: 'home-garden',
    kind: 'goods',
    weight: 10,
    price: [2, 2500],
    brandRate: 0.55,
    brandPosition: 'before',
    adjectives: [
      'powerful',
      'barely used',
      'quiet',
      'heavy-duty',
      'compact',
      'energy-saving',
      'weatherproof',
    ],
    extras: ['with manual', 'with spare parts', 'including accessories'],
    titles: GOODS_TITLES,
    brandTitles: GOODS_BRAND_TITLES,
    attributes: [conditionAttr(), brandAttr()],
    details: [
      'Cleaned and ready to use.',
      'Spare parts are still easy to find.',
      'Used for {years} summers in a small garden.',
      'The manual is included as a PDF.',
    ],
    shopWords: ['Garden Centre', 'Home Supply', 'Hardware', 'Tool Hire'],
    items: [
      {
        noun: 'lawn mower',
        brands: ['Bosch Rotak', 'Husqvarna', 'Honda'],
        price: [60, 900],
        attributes: [oneOf('powerSource', ['petrol', 'cordless', 'corded'])],
      },
      { noun: 'garden hose reel', brands: ['Gardena'], price: [10, 80] },
      {
        noun: 'patio furniture set',
        price: [60, 1200],
        attributes: [oneOf('material', ['teak', 'aluminium', 'rattan'])],
      },
      { noun: 'charcoal barbecue', brands: ['Weber Master-Touch', 'Weber'], price: [30, 400] },
      {
        noun: 'raised garden bed',
        price: [25, 250],
        attributes: [oneOf('material', ['larch', 'steel', 'cedar'])],
      },
      {
        noun: 'hedge trimmer',
        brands: ['Bosch', 'Makita', 'Stihl'],
        price: [25, 200],
        attributes: [oneOf('powerSource', ['cordless', 'corded', 'petrol'])],
      },
      { noun: 'pressure washer', brands: ['Karcher K5', 'Nilfisk'], price: [50, 450] },
      { noun: 'terracotta planters', price: [5, 80], extras: ['set of three', 'set of five'] },
      {
        noun: 'cordless drill',
        brands: ['Makita', 'DeWalt', 'Bosch'],
        price: [25, 250],
        attributes: [fixed('powerSource', 'cordless')],
      },
      { noun: 'aluminium ladder', price: [20, 200], attributes: [intRange('steps', 3, 12)] },
      {
        noun: 'espresso machine',
        brands: ['DeLonghi Dedica', 'Sage Bambino', 'Gaggia Classic'],
        price: [40, 900],
      },
      { noun: 'cordless vacuum cleaner', brands: ['Dyson V11', 'Miele', 'Bosch'], price: [30, 500] },
      { noun: 'stand mixer', brands: ['KitchenAid Artisan', 'Kenwood Chef'], price: [60, 450] },
      { noun: 'air purifier', brands: ['Philips', 'Levoit', 'Blueair'], price: [30, 400] },
    ],
  },
  {
    slug: 'music',
    kind: 'goods',
    weight: 5,
    price: [5, 6000],
    brandRate: 0.7,
    brandPosition: 'before',
    adjectives: ['vintage', 'beautiful', 'well played', 'barely used', 'professional', 'student'],
    extras: ['with hard case', 'with gig bag', 'plus accessories'],
    titles: GOODS_TITLES,
    brandTitles: GOODS_BRAND_TITLES,
    attributes: [conditionAttr(), brandAttr(), oneOf('includesCase', ['yes', 'no'], 0.6)],
    details: [
      'Freshly set up with new strings.',
      'Sounds great and stays in tune.',
      'Played for {years} years in a non-smoking home.',
      'Can be tried out at my place before buying.',
    ],
    shopWords: ['Music', 'Guitar Shop', 'Sound House', 'Instruments'],
    items: [
      { noun: 'acoustic guitar', brands: ['Yamaha FG800', 'Martin D-10E', 'Taylor 114e'], price: [60, 2500] },
      {
        noun: 'electric guitar',
        brands: ['Fender Stratocaster', 'Gibson Les Paul', 'Ibanez RG'],
        price: [120, 3500],
      },
      { noun: 'digital piano', brands: ['Yamaha P-125', 'Roland FP-30', 'Kawai ES110'], price: [200, 1800] },
      { noun: 'drum kit', brands: ['Pearl Export', 'Tama Imperialstar', 'Roland TD-07'], price: [150, 2500] },
      { noun: 'violin', price: [80, 6000], extras: ['with case and bow', 'full size', 'three-quarter size'] },
      { noun: 'alto saxophone', brands: ['Yamaha YAS-280', 'Jupiter'], price: [300, 2500] },
      { noun: 'bass guitar', brands: ['Fender Precision', 'Squier Jazz Bass'], price: [120, 2200] },
      { noun: 'ukulele', brands: ['Kala', 'Martin'], price: [20, 150] },
      {
        noun: 'synthesizer',
        brands: ['Korg Minilogue', 'Arturia MicroFreak', 'Roland Juno'],
        price: [200, 2500],
      },
      {
        noun: 'audio interface',
        brands: ['Focusrite Scarlett 2i2', 'Universal Audio Volt'],
        price: [50, 400],
      },
      {
        noun: 'studio monitors',
        brands: ['KRK Rokit 5', 'Yamaha HS5'],
        price: [100, 600],
        extras: ['pair with cables', 'with stands'],
      },
      {
        noun: 'vinyl record collection',
        price: [20, 1200],
        attributes: [intRange('itemCount', 20, 300, 10)],
      },
      { noun: 'DJ controller', brands: ['Pioneer DDJ-400', 'Numark Mixtrack'], price: [120, 900] },
    ],
  },
  {
    slug: 'pets',
    kind: 'goods',
    weight: 5,
    price: [3, 1500],
    brandRate: 0.4,
    brandPosition: 'before',
    adjectives: ['sturdy', 'spacious', 'washable', 'barely used', 'cosy', 'foldable'],
    extras: ['with accessories', 'easy to clean', 'for indoor use'],
    titles: GOODS_TITLES,
    brandTitles: GOODS_BRAND_TITLES,
    attributes: [conditionAttr(), oneOf('size', ['small', 'medium', 'large'], 0.6)],
    details: [
      'Our pet has outgrown it.',
      'Thoroughly cleaned and disinfected.',
      'Suitable for indoor and outdoor use.',
      'Used for only {days} weeks.',
    ],
    shopWords: ['Pet Supplies', 'Pet Shop', 'Aquatics', 'Pet Corner'],
    items: [
      {
        noun: 'dog crate',
        brands: ['Trixie', 'Savic'],
        price: [15, 150],
        attributes: [fixed('suitableFor', 'dogs')],
      },
      {
        noun: 'cat tree',
        brands: ['Trixie', 'Kerbl'],
        price: [10, 180],
        attributes: [fixed('suitableFor', 'cats')],
      },
      {
        noun: 'aquarium',
        brands: ['Juwel Rio', 'Fluval'],
        price: [20, 600],
        attributes: [fixed('suitableFor', 'fish'), oneOf('volumeL', [60, 125, 180, 240, 350])],
      },
      { noun: 'bird cage', price: [15, 200], attributes: [fixed('suitableFor', 'birds')] },
      { noun: 'orthopedic dog bed', price: [15, 120], attributes: [fixed('suitableFor', 'dogs')] },
      { noun: 'rabbit hutch', price: [20, 250], attributes: [fixed('suitableFor', 'rabbits')] },
      {
        noun: 'glass terrarium',
        brands: ['Exo Terra'],
        price: [25, 300],
        attributes: [fixed('suitableFor', 'reptiles')],
      },
      { noun: 'cat carrier', price: [5, 60], attributes: [fixed('suitableFor', 'cats')] },
      { noun: 'horse saddle', price: [150, 1500], attributes: [fixed('suitableFor', 'horses')] },
      { noun: 'dog bike trailer', price: [60, 400], attributes: [fixed('suitableFor', 'dogs')] },
      { noun: 'automatic pet feeder', brands: ['PetSafe', 'Petlibro'], price: [20, 120] },
      {
        noun: 'dog harness',
        brands: ['Ruffwear', 'Julius-K9'],
        price: [8, 60],
        attributes: [fixed('suitableFor', 'dogs')],
      },
    ],
  },
];

export const COUNTRIES: readonly CountrySpec[] = [
  { code: 'DE', name: 'Germany', currency: 'EUR', eurRate: 1, language: 'German' },
  { code: 'FR', name: 'France', currency: 'EUR', eurRate: 1, language: 'French' },
  { code: 'ES', name: 'Spain', currency: 'EUR', eurRate: 1, language: 'Spanish' },
  { code: 'IT', name: 'Italy', currency: 'EUR', eurRate: 1, language: 'Italian' },
  { code: 'NL', name: 'the Netherlands', currency: 'EUR', eurRate: 1, language: 'Dutch' },
  { code: 'GB', name: 'the United Kingdom', currency: 'GBP', eurRate: 0.85, language: 'English' },
  { code: 'US', name: 'the United States', currency: 'USD', eurRate: 1.08, language: 'English' },
  { code: 'CA', name: 'Canada', currency: 'CAD', eurRate: 1.5, language: 'English' },
  { code: 'AU', name: 'Australia', currency: 'AUD', eurRate: 1.65, language: 'English' },
  { code: 'CH', name: 'Switzerland', currency: 'CHF', eurRate: 0.95, language: 'German' },
  { code: 'SE', name: 'Sweden', currency: 'SEK', eurRate: 11.3, language: 'Swedish' },
  { code: 'PL', name: 'Poland', currency: 'PLN', eurRate: 4.3, language: 'Polish' },
  { code: 'JP', name: 'Japan', currency: 'JPY', eurRate: 160, language: 'Japanese' },
  { code: 'SG', name: 'Singapore', currency: 'SGD', eurRate: 1.45, language: 'English' },
];

export const CITIES: readonly CitySpec[] = [
  { name: 'Berlin', region: 'Berlin', country: 'DE', lat: 52.52, lon: 13.405, weight: 6 },
  { name: 'Hamburg', region: 'Hamburg', country: 'DE', lat: 53.5511, lon: 9.9937, weight: 4 },
  { name: 'Munich', region: 'Bavaria', country: 'DE', lat: 48.1351, lon: 11.582, weight: 4 },
  { name: 'Cologne', region: 'North Rhine-Westphalia', country: 'DE', lat: 50.9375, lon: 6.9603, weight: 3 },
  { name: 'Paris', region: 'Île-de-France', country: 'FR', lat: 48.8566, lon: 2.3522, weight: 8 },
  { name: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR', lat: 45.764, lon: 4.8357, weight: 3 },
  {
    name: 'Marseille',
    region: "Provence-Alpes-Côte d'Azur",
    country: 'FR',
    lat: 43.2965,
    lon: 5.3698,
    weight: 3,
  },
  { name: 'Toulouse', region: 'Occitanie', country: 'FR', lat: 43.6047, lon: 1.4442, weight: 2 },
  { name: 'Madrid', region: 'Community of Madrid', country: 'ES', lat: 40.4168, lon: -3.7038, weight: 6 },
  { name: 'Barcelona', region: 'Catalonia', country: 'ES', lat: 41.3874, lon: 2.1686, weight: 5 },
  { name: 'Valencia', region: 'Valencian Community', country: 'ES', lat: 39.4699, lon: -0.3763, weight: 2 },
  { name: 'Seville', region: 'Andalusia', country: 'ES', lat: 37.3891, lon: -5.9845, weight: 2 },
  { name: 'Rome', region: 'Lazio', country: 'IT', lat: 41.9028, lon: 12.4964, weight: 5 },
  { name: 'Milan', region: 'Lombardy', country: 'IT', lat: 45.4642, lon: 9.19, weight: 5 },
  { name: 'Naples', region: 'Campania', country: 'IT', lat: 40.8518, lon: 14.2681, weight: 3 },
  { name: 'Florence', region: 'Tuscany', country: 'IT', lat: 43.7696, lon: 11.2558, weight: 2 },
  { name: 'Amsterdam', region: 'North Holland', country: 'NL', lat: 52.3676, lon: 4.9041, weight: 4 },
  { name: 'Rotterdam', region: 'South Holland', country: 'NL', lat: 51.9244, lon: 4.4777, weight: 3 },
  { name: 'Utrecht', region: 'Utrecht', country: 'NL', lat: 52.0907, lon: 5.1214, weight: 2 },
  { name: 'London', region: 'Greater London', country: 'GB', lat: 51.5074, lon: -0.1278, weight: 9 },
  { name: 'Manchester', region: 'Greater Manchester', country: 'GB', lat: 53.4808, lon: -2.2426, weight: 3 },
  { name: 'Edinburgh', region: 'Scotland', country: 'GB', lat: 55.9533, lon: -3.1883, weight: 2 },
  { name: 'New York', region: 'New York', country: 'US', lat: 40.7128, lon: -74.006, weight: 9 },
  { name: 'Chicago', region: 'Illinois', country: 'US', lat: 41.8781, lon: -87.6298, weight: 5 },
  { name: 'San Francisco', region: 'California', country: 'US', lat: 37.7749, lon: -122.4194, weight: 4 },
  { name: 'Austin', region: 'Texas', country: 'US', lat: 30.2672, lon: -97.7431, weight: 3 },
  { name: 'Seattle', region: 'Washington', country: 'US', lat: 47.6062, lon: -122.3321, weight: 3 },
  { name: 'Toronto', region: 'Ontario', country: 'CA', lat: 43.6532, lon: -79.3832, weight: 5 },
  { name: 'Montreal', region: 'Quebec', country: 'CA', lat: 45.5019, lon: -73.5674, weight: 3 },
  { name: 'Vancouver', region: 'British Columbia', country: 'CA', lat: 49.2827, lon: -123.1207, weight: 3 },
  { name: 'Sydney', region: 'New South Wales', country: 'AU', lat: -33.8688, lon: 151.2093, weight: 5 },
  { name: 'Melbourne', region: 'Victoria', country: 'AU', lat: -37.8136, lon: 144.9631, weight: 5 },
  { name: 'Brisbane', region: 'Queensland', country: 'AU', lat: -27.4698, lon: 153.0251, weight: 2 },
  { name: 'Zurich', region: 'Zurich', country: 'CH', lat: 47.3769, lon: 8.5417, weight: 2 },
  { name: 'Geneva', region: 'Geneva', country: 'CH', lat: 46.2044, lon: 6.1432, weight: 1 },
  { name: 'Stockholm', region: 'Stockholm County', country: 'SE', lat: 59.3293, lon: 18.0686, weight: 3 },
  { name: 'Gothenburg', region: 'Västra Götaland', country: 'SE', lat: 57.7089, lon: 11.9746, weight: 2 },
  { name: 'Malmö', region: 'Skåne', country: 'SE', lat: 55.605, lon: 13.0038, weight: 1 },
  { name: 'Warsaw', region: 'Masovia', country: 'PL', lat: 52.2297, lon: 21.0122, weight: 4 },
  { name: 'Kraków', region: 'Lesser Poland', country: 'PL', lat: 50.0647, lon: 19.945, weight: 2 },
  { name: 'Gdańsk', region: 'Pomerania', country: 'PL', lat: 54.352, lon: 18.6466, weight: 1 },
  { name: 'Tokyo', region: 'Tokyo', country: 'JP', lat: 35.6762, lon: 139.6503, weight: 9 },
  { name: 'Osaka', region: 'Osaka', country: 'JP', lat: 34.6937, lon: 135.5023, weight: 4 },
  { name: 'Kyoto', region: 'Kyoto', country: 'JP', lat: 35.0116, lon: 135.7681, weight: 2 },
  // A city-state has no meaningful region, which exercises the nullable field.
  { name: 'Singapore', region: null, country: 'SG', lat: 1.3521, lon: 103.8198, weight: 4 },
];

export const TAGS: readonly TagSpec[] = [
  { slug: 'like-new', kinds: ['goods'], implied: true },
  { slug: 'free-delivery', kinds: ['goods'], implied: true },
  { slug: 'negotiable', kinds: ['goods', 'vehicle', 'property', 'service'] },
  { slug: 'warranty', kinds: ['goods', 'vehicle'] },
  { slug: 'vintage', kinds: ['goods'] },
  { slug: 'pickup-only', kinds: ['goods'], implied: true },
  { slug: 'eco', kinds: ALL_KINDS },
  { slug: 'original-box', kinds: ['goods'], implied: true },
  { slug: 'handmade', kinds: ['goods'] },
  { slug: 'bundle', kinds: ['goods'] },
  { slug: 'urgent', kinds: ALL_KINDS },
  { slug: 'price-drop', kinds: ['goods', 'vehicle', 'property'] },
  { slug: 'refurbished', kinds: ['goods'] },
  { slug: 'collectors-item', kinds: ['goods'] },
  { slug: 'shipping-available', kinds: ['goods'], implied: true },
  { slug: 'smoke-free-home', kinds: ['goods'] },
  { slug: 'receipt-included', kinds: ['goods'], implied: true },
  { slug: 'service-history', kinds: ['vehicle'] },
  { slug: 'one-owner', kinds: ['vehicle'], implied: true },
  { slug: 'winter-tyres', kinds: ['vehicle'] },
  { slug: 'furnished', kinds: ['property'] },
  { slug: 'balcony', kinds: ['property'] },
  { slug: 'pet-friendly', kinds: ['property'] },
  { slug: 'parking', kinds: ['property'] },
  { slug: 'new-build', kinds: ['property'] },
  { slug: 'garden', kinds: ['property'] },
  { slug: 'elevator', kinds: ['property'] },
  { slug: 'remote-friendly', kinds: ['job'], implied: true },
  { slug: 'visa-sponsorship', kinds: ['job'] },
  { slug: 'flexible-hours', kinds: ['job', 'service'] },
  { slug: 'training-provided', kinds: ['job'] },
  { slug: 'relocation-support', kinds: ['job'] },
  { slug: 'same-day', kinds: ['service'] },
  { slug: 'certified', kinds: ['service'] },
  { slug: 'free-quote', kinds: ['service'] },
  { slug: 'insured', kinds: ['service'] },
  { slug: 'weekends', kinds: ['service'], implied: true },
];

export const ATTRIBUTE_TAGS: readonly AttributeTag[] = [
  { key: 'condition', value: 'like-new', tag: 'like-new' },
  { key: 'condition', value: 'new', tag: 'original-box' },
  { key: 'workMode', value: 'remote', tag: 'remote-friendly' },
  { key: 'workMode', value: 'hybrid', tag: 'remote-friendly' },
  { key: 'availability', value: 'weekends', tag: 'weekends' },
  { key: 'availability', value: 'any day', tag: 'weekends' },
];

/** Shop names are `<prefix> <category shop word>`, e.g. "Riverside Bike Shop". */
export const SHOP_PREFIXES: readonly string[] = [
  'Nordic',
  'Urban',
  'Greenway',
  'Brightside',
  'Little',
  'Golden',
  'Bluebird',
  'Corner',
  'Old Town',
  'Riverside',
  'Maple',
  'Harbour',
  'Northstar',
  'Sunrise',
  'Silverline',
  'Oakwood',
  'Redbrick',
  'Lakeside',
  'Westend',
  'Cityline',
];

/** Private sellers appear as "first name + last initial", as on most marketplaces. */
export const FIRST_NAMES: readonly string[] = [
  'Anna',
  'Lukas',
  'Sofia',
  'Mateo',
  'Emma',
  'Hiroshi',
  'Yuki',
  'Olivia',
  'Liam',
  'Chloé',
  'Giulia',
  'Marco',
  'Jan',
  'Zofia',
  'Erik',
  'Astrid',
  'Noah',
  'Mia',
  'Priya',
  'Omar',
  'Lena',
  'Jonas',
  'Clara',
  'Felix',
  'Léa',
  'Hugo',
  'Lucía',
  'Pablo',
  'Elena',
  'Luca',
  'Sara',
  'Daan',
  'Fenna',
  'Oliver',
  'Amelia',
  'Ethan',
  'Ava',
  'Lucas',
  'Charlotte',
  'Jack',
  'Isla',
  'Kenji',
  'Aiko',
  'Sakura',
  'Piotr',
  'Kasia',
  'Nils',
  'Freja',
  'Elias',
  'Noor',
  'Wei',
  'Mei',
  'Diego',
  'Camille',
  'Tom',
  'Ruth',
  'Samuel',
  'Hannah',
  'Ingrid',
  'Marta',
];
