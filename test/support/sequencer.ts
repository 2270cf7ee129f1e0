import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Issue 26: with the files spread over the workers, the run ends when its longest file does, so
 * the long files start first. Vitest orders by the durations of the previous run when it has them
 * (node_modules/.vite); a fresh clone has none and would order by file size, which puts a
 * two-minute CLI file last. The files below (slowest first, measured one by one) run before
 * everything else; the rest keep Vitest's order.
 */
const SLOW_FIRST = [
  'test/cluster/webhooks-delivery.test.ts',
  'test/cli/cli.test.ts',
  'test/cluster/multi-instance.test.ts',
  'test/contract/search-paging.property.contract.test.ts',
  'test/fuzz/search.fuzz.test.ts',
  'test/cluster/oauth-revocation.test.ts',
  'test/e2e/phone-pages.browser.test.ts',
  'test/cluster/search-freshness.test.ts',
  'test/http/auth.security.test.ts',
  'test/fuzz/pages-and-me.fuzz.test.ts',
  'test/sdk/pack-install.test.ts',
  'test/docs/readme-runs.test.ts',
  'test/e2e/portal-quickstart.browser.test.ts',
  'test/http/me.test.ts',
  'test/contract/search.contract.test.ts',
];

function rank(spec: TestSpecification): number {
  const file = spec.moduleId.replaceAll('\\', '/');
  const index = SLOW_FIRST.findIndex((slow) => file.endsWith(`/${slow}`));
  return index === -1 ? SLOW_FIRST.length : index;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the other files keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
