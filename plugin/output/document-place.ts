// Where a reported object was read, as the text outputs (explain) print it: the file, and which document of it
// when it is not the first, counted from 1 as a person counts. Results keep kpt's `FILE#N` (file.index, from 0).

/** `  (app.yaml)`, `  (app.yaml, document 2)`; empty for an object read from nowhere named. */
export function documentPlace(file: { path: string; index?: number } | undefined): string {
  if (!file) return '';
  return file.index ? `  (${file.path}, document ${file.index + 1})` : `  (${file.path})`;
}
