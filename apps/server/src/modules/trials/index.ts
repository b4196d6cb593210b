export { syncTrialPlan } from './trial-plan.ts';
