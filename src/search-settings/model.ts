// The search settings capability's domain types (issue 23): what an operator declares per
// environment for search. Other capabilities import these, never the store.
import type { AttributeDeclaration, RankBy } from '../search/engine.js';

export {
  ATTRIBUTE_TYPES,
  type AttributeDeclaration,
  type AttributeType,
  type RankBy,
} from '../search/engine.js';

/** Attribute names: a letter, then letters, digits or `_`, at most 40 characters. */
export const ATTRIBUTE_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;
export const MAX_ATTRIBUTES = 64;

/** The declarations of one environment and the version every change bumps (0: never changed). */
export interface SearchSettings {
  attributes: AttributeDeclaration[];
  /** The ranking tie-break after the text rules (null: newest first). */
  rankBy: RankBy | null;
  version: number;
}

export { formatRankBy, parseRankBy } from '../search/rules.js';

/** Change-bus topic on which changes of the declarations are announced; message: the environment. */
export const SEARCH_SETTINGS_TOPIC = 'search-settings';
