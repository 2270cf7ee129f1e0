import type { Environment } from '../platform/environment.js';

/** A synonym rule of an environment's search (docs/search.md). */
export interface Synonym {
  id: string;
  environment: Environment;
  /** True: the first word finds the others, not the reverse. False: each finds the others. */
  oneWay: boolean;
  /** Each a word or several (`television set`), as the operator wrote them. */
  words: string[];
  /** Epoch milliseconds. */
  createdAt: number;
}

/** Rules per environment, and words per rule. */
export const MAX_SYNONYMS = 1000;
export const MAX_SYNONYM_WORDS = 20;
export const MAX_SYNONYM_LENGTH = 100;
