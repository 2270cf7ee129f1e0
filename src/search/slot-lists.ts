/** Sorted lists of slots (ascending Int32Array): the posting lists and what queries make of them. */

/** Sorted union, each slot once: pairwise merges, shortest lists first (no sort of the whole). */
export function union(lists: readonly Int32Array[]): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  const queue = [...lists].sort((a, b) => a.length - b.length);
  while (queue.length > 1) {
    const merged = union2(queue.shift() as Int32Array, queue.shift() as Int32Array);
    let at = 0;
    while (at < queue.length && (queue[at] as Int32Array).length < merged.length) at += 1;
    queue.splice(at, 0, merged);
  }
  return queue[0] as Int32Array;
}

function union2(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x <= y) {
      out[n++] = x;
      i += 1;
      if (x === y) j += 1;
    } else {
      out[n++] = y;
      j += 1;
    }
  }
  while (i < a.length) out[n++] = a[i++] as number;
  while (j < b.length) out[n++] = b[j++] as number;
  return out.subarray(0, n);
}

/** Sorted intersection; gallops through the longer list when the lengths differ a lot. */
export function intersect(a: Int32Array, b: Int32Array): Int32Array {
  if (a.length > b.length) return intersect(b, a);
  const out = new Int32Array(a.length);
  let n = 0;
  if (a.length * 16 < b.length) {
    let lo = 0;
    for (let i = 0; i < a.length; i += 1) {
      const x = a[i] as number;
      let hi = b.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((b[mid] as number) < x) lo = mid + 1;
        else hi = mid;
      }
      if (lo < b.length && b[lo] === x) out[n++] = x;
    }
    return out.subarray(0, n);
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      out[n++] = x;
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  return out.subarray(0, n);
}
