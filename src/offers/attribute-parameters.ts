import type { ParameterError } from '../http/errors.js';
import { attributeValue, foldString } from '../search/attributes/values.js';
import type { AttributeFilter, EngineSort, FacetRequest, SearchSchema } from '../search/engine.js';
import { attributeSort } from '../search/rules.js';
import { ATTRIBUTE_PARAMETER } from './schemas.js';

/**
 * The search parameters about declared attributes (ADR 0029), checked against the declarations
 * of the index that answers: `attr.NAME=V` (any of), `attr.NAME.min` / `.max`, `facets=attr.NAME`
 * and `sort=attr.NAME`. Each problem is a `400 invalid_parameter` naming the parameter.
 */

type Raw = string | number | boolean;

export function attributeFilters(
  query: Readonly<Record<string, unknown>>,
  schema: SearchSchema,
  errors: ParameterError[],
): AttributeFilter[] {
  const byName = new Map<string, AttributeFilter>();
  for (const [parameter, given] of Object.entries(query)) {
    const match = ATTRIBUTE_PARAMETER.exec(parameter);
    if (!match || given === undefined) continue;
    const name = match[1] as string;
    const bound = match[3] as 'min' | 'max' | undefined;
    const declared = schema.attributes.find((a) => a.name === name);
    if (!declared) {
      errors.push({
        parameter,
        message: `${name} is not a declared attribute (GET /v1/attributes lists them)`,
      });
      continue;
    }
    const filter = byName.get(name) ?? { name, values: [], min: null, max: null };
    byName.set(name, filter);
    const values = [given].flat() as Raw[];
    if (bound) {
      // Written as an offer's number is (`3`, `-2.5`): not `0x10`, `1e3` or ` 3`.
      const given = values[0];
      const n =
        typeof given === 'boolean' || (typeof given === 'string' && given.trim() !== given)
          ? undefined
          : attributeValue('number', given);
      if (declared.type !== 'number')
        errors.push({ parameter, message: `${name} is a ${declared.type}: min and max are for numbers` });
      else if (values.length !== 1 || typeof n !== 'number')
        errors.push({ parameter, message: 'must be one finite number' });
      else filter[bound] = n;
      continue;
    }
    const parsed: Array<number | string> = [];
    for (const raw of values) {
      const v =
        declared.type === 'string'
          ? typeof raw === 'boolean'
            ? undefined
            : foldString(String(raw)) || undefined
          : attributeValue(declared.type, raw);
      if (v === undefined) {
        errors.push({
          parameter,
          message:
            declared.type === 'number'
              ? 'must be a finite number'
              : declared.type === 'boolean'
                ? 'must be true or false'
                : 'must hold a letter or digit',
        });
        break;
      }
      parsed.push(v);
    }
    filter.values = [...new Set([...filter.values, ...parsed])].sort();
  }
  for (const { name, min, max } of byName.values())
    if (min !== null && max !== null && min > max)
      errors.push({ parameter: `attr.${name}.min`, message: `must not be greater than attr.${name}.max` });
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** `facets`: the names asked for, each built-in, `price`, or a declared `--facet` attribute. */
export function facetRequests(
  value: string | undefined,
  schema: SearchSchema,
  errors: ParameterError[],
): FacetRequest[] {
  if (value === undefined) return [];
  const names = [...new Set(value.split(','))] as FacetRequest[];
  for (const name of names) {
    if (!name.startsWith('attr.')) continue;
    const declared = schema.attributes.find((a) => a.name === name.slice(5));
    if (!declared?.facet)
      errors.push({ parameter: 'facets', message: `${name} is not a declared --facet attribute` });
  }
  return names;
}

/** `sort=attr.NAME` / `-attr.NAME`: a declared `--sort` attribute. */
export function checkSort(sort: EngineSort, schema: SearchSchema, errors: ParameterError[]): void {
  const by = attributeSort(sort);
  if (!by) return;
  const declared = schema.attributes.find((a) => a.name === by.name);
  if (!declared?.sort)
    errors.push({ parameter: 'sort', message: `${by.name} is not a declared --sort attribute` });
}
