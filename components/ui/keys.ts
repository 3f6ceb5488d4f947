/**
 * React keys for a list of strings that may repeat (a bridge may list the same admissible command
 * twice): the string itself, or `string#2`, `string#3` … when that key is taken by an earlier
 * item, so that no two keys collide and an item keeps its key when others are added after it.
 */
export function keyedByOccurrence(values: readonly string[]): { key: string; value: string }[] {
  const used = new Set<string>();
  return values.map((value) => {
    let key = value;
    for (let n = 2; used.has(key); n++) key = `${value}#${n}`;
    used.add(key);
    return { key, value };
  });
}
