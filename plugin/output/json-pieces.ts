// Output stage: a JSON document as the pieces of its text, made while they are written (#37). A report of 50,000
// targets is 52 MB of JSON: made whole by JSON.stringify it was one string, and the encoder's flattened copy of it,
// beside the report it was made from; as pieces, about one element of a long array exists as text at a time.

/** A member's array written element by element, each made when its turn to be written comes. */
export interface ArrayPieces {
  readonly lazyItems: Iterable<unknown>;
}

/** Marks `items` to be written one element at a time (see jsonPieces). */
export function arrayPieces(items: Iterable<unknown>): ArrayPieces {
  return { lazyItems: items };
}

/**
 * The text of `JSON.stringify(object, null, 2)` as pieces, in order, where `object` has `members` as its own
 * properties in this order, an ArrayPieces standing for the array of its items; no trailing newline.
 * - Byte-identical to the whole: a member is the stringified value indented one level, an element two, and JSON
 *   text holds a line break only between its tokens (a string's is escaped), so indenting is replacing `\n`.
 * - As JSON.stringify: a member whose value is undefined, a function or a symbol is left out; such an element
 *   is `null`. The members' values have no toJSON of their own (their contents may).
 */
export function* jsonPieces(members: ReadonlyArray<readonly [string, unknown]>): Generator<string> {
  const written = members.filter(([, value]) => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol');
  if (written.length === 0) {
    yield '{}';
    return;
  }
  let lead = '{\n  ';
  for (const [key, value] of written) {
    const name = `${lead}${JSON.stringify(key)}: `;
    lead = ',\n  ';
    if (!isArrayPieces(value)) {
      yield `${name}${indented(value, '\n  ')}`;
      continue;
    }
    let open = `${name}[\n    `;
    for (const item of value.lazyItems) {
      yield `${open}${indented(item, '\n    ') ?? 'null'}`;
      open = ',\n    ';
    }
    // No element: `[]`, as JSON.stringify writes an empty array; else the array closes on a line of its own.
    yield open === ',\n    ' ? '\n  ]' : `${name}[]`;
  }
  yield '\n}';
}

function isArrayPieces(value: unknown): value is ArrayPieces {
  return typeof value === 'object' && value !== null && 'lazyItems' in value;
}

/** `value` as JSON.stringify(value, null, 2) writes it, each line after the first indented by `newline`'s spaces. */
function indented(value: unknown, newline: string): string | undefined {
  return JSON.stringify(value, null, 2)?.replace(/\n/g, newline);
}
