// Read stage: one object of each class the readers make per document, kept for the life of the process. V8 keeps
// the layout (map) such objects share only while one of them lives; a full collection that comes between two
// documents frees it and throws away the optimized code of every function built on it (the readers' own, about ten
// of them, each compiled again once the next document's objects have a layout anew) (#37).
const LIVE: object[] = [];

/** Keeps `o` alive, so the objects made as it was keep their layout. */
export function keepLayout(o: object): void {
  LIVE.push(o);
}
