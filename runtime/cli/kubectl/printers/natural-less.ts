// github.com/fvbommel/sortorder's NaturalLess, which kubectl's --sort-by uses for strings.

/** sortorder.NaturalLess: digit runs compare by value, everything else byte-wise. */
export function naturalLess(str1: string, str2: string): boolean {
  let i1 = 0;
  let i2 = 0;
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  while (i1 < str1.length && i2 < str2.length) {
    const c1 = str1[i1]!;
    const c2 = str2[i2]!;
    const d1 = isDigit(c1);
    const d2 = isDigit(c2);
    if (d1 !== d2) return d1;
    if (!d1) {
      if (c1 !== c2) return c1 < c2;
      i1++;
      i2++;
      continue;
    }
    let z1 = i1;
    while (str1[z1] === '0') z1++;
    let z2 = i2;
    while (str2[z2] === '0') z2++;
    let e1 = z1;
    while (isDigit(str1[e1])) e1++;
    let e2 = z2;
    while (isDigit(str2[e2])) e2++;
    const n1 = str1.slice(z1, e1);
    const n2 = str2.slice(z2, e2);
    if (n1.length !== n2.length) return n1.length < n2.length;
    if (n1 !== n2) return n1 < n2;
    if (z1 - i1 !== z2 - i2) return z1 - i1 < z2 - i2;
    i1 = e1;
    i2 = e2;
  }
  return str1.length - i1 < str2.length - i2;
}
