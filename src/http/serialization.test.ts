import { describe, expect, it } from 'vitest';
import { sharedSerializers } from './serialization.js';

const route = (schema: unknown) => ({ method: 'GET', url: '/x', httpStatus: '200', schema });
const offer = { type: 'object', properties: { id: { type: 'string' }, price: { type: 'number' } } };

describe('response serializers shared across apps', () => {
  it('compiles a schema once for every app, and each schema to its own serializer', () => {
    const first = sharedSerializers(undefined, undefined)(route(offer));
    const second = sharedSerializers({}, {})(route(offer));
    expect(second).toBe(first);
    // What the schema lists, and nothing else (fast-json-stringify drops unknown fields).
    expect(first({ id: 'o1', price: 2, secret: 'x' })).toBe('{"id":"o1","price":2}');
    const other = { type: 'object', properties: { id: { type: 'string' } } };
    const third = sharedSerializers(undefined, undefined)(route(other));
    expect(third).not.toBe(first);
    expect(third({ id: 'o1', price: 2 })).toBe('{"id":"o1"}');
  });

  it('shares nothing when shared schemas or options are given', () => {
    const plain = sharedSerializers(undefined, undefined)(route(offer));
    const withOptions = sharedSerializers(undefined, { rounding: 'floor' })(route(offer));
    expect(withOptions).not.toBe(plain);
    expect(withOptions({ id: 'o1', price: 2 })).toBe('{"id":"o1","price":2}');
  });
});
