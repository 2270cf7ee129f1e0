/** The two environments. Keys, offers, end users and signing keys belong to one. */
export const ENVIRONMENTS = ['production', 'testing'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** The short form used inside API keys (`vk_prod_…`, `vk_test_…`). */
export const ENV_KEY_TAG = { production: 'prod', testing: 'test' } as const satisfies Record<
  Environment,
  string
>;

export function isEnvironment(value: string): value is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}
