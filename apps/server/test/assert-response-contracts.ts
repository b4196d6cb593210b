import { afterAll, afterEach } from 'vitest';
import { takeContractViolations } from './contract-violations.ts';

// Every server test: an answer that breaks its route's documented contract fails the test
// that provoked it (or, from a beforeAll, the file), with the route, status and mismatch.
const failOnViolations = () => {
  const message = takeContractViolations();
  if (message) throw new Error(message);
};
afterEach(failOnViolations);
afterAll(failOnViolations);
