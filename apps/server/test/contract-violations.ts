import type { ContractViolation } from '../src/http/response-contract-check.ts';

/**
 * Answers of the test app that did not match their documented contract, since the last
 * check. Every test app of a test file reports here (createTestApp); the setup file
 * assert-response-contracts.ts fails the test that caused them.
 */
const violations: ContractViolation[] = [];

export function recordContractViolation(violation: ContractViolation): void {
  violations.push(violation);
}

/** The violations recorded so far, as one message; empties the record. */
export function takeContractViolations(): string | null {
  if (violations.length === 0) return null;
  const lines = violations.map(
    (violation) => `- ${violation.route} answered ${violation.status}: ${violation.problem}`,
  );
  violations.length = 0;
  return (
    `${lines.length} answer(s) did not match the documented contract ` +
    `(apps/server/src/http/route-contracts.ts; fix the route or the contract):\n${lines.join('\n')}`
  );
}
