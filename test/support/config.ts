// A run's Config as the tests make it: readConfig over settings given as a functionConfig would give them, the
// defaults for the rest; a setting readConfig rejects fails the test with its results.
import { readConfig, type Config } from '../../function/index.ts';

export function configOf(settings: Record<string, unknown> = {}): Config {
  const read = readConfig(undefined, settings);
  if (!('config' in read)) throw new Error(JSON.stringify(read.results));
  return read.config;
}
