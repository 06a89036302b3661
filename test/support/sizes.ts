// How big the slow suites run: the sizes their issues ask for when CI is set, smaller ones on a developer's
// `npm test`, so the whole suite stays within six minutes on an idle 2-core machine (#36). One definition of
// "CI is set" for every suite; each smaller size is still one at which its suite has failed before or can.

/** Whether the full sizes run: env CI set and not empty (GitHub Actions and GitLab CI set CI=true). */
export const FULL_SIZES = (process.env.CI ?? '') !== '';

/** `full` under CI, `quick` elsewhere. */
export function sized<T>(full: T, quick: T): T {
  return FULL_SIZES ? full : quick;
}

/**
 * Whether a run through a process (the bundle, kpt, helm, Argo CD's generate) is repeated with
 * ROLLSTAMP_READER=full and compared byte for byte: under CI. Elsewhere the two readers' byte identity is held
 * in-process by test/golden/differential.test.ts and the property suites (bothReaders), and each twin would
 * cost one more process start-up per run.
 */
export const PROCESS_TWINS = FULL_SIZES;
