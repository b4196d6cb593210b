export { createMeterCounter, type MeterCounter, type MeterUseOutcome } from './count-meter-use.ts';
export {
  clientMeterOf,
  clientMetersOf,
  effectiveMeters,
  nextMeterResetMs,
  userMetersOf,
  type EffectiveMeter,
  type MeterUsageRow,
} from './effective-meters.ts';
export { meterPeriodOf, type MeterPeriod } from './meter-periods.ts';
