// Splits a command line the way a POSIX shell would before kubectl sees it: whitespace separates
// words, '...' keeps everything literal, "..." keeps spaces and honours \" \\ \$ \`, and a
// backslash outside quotes escapes the next character. A backslash before a newline, outside
// single quotes, continues the line: both go (a command pasted over several lines with \).

export type SplitResult = { ok: true; words: string[] } | { ok: false; error: string };

export function shellSplit(line: string): SplitResult {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, error: 'unterminated single quote' };
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && line[j + 1] === '\n') {
          j++;
          continue;
        }
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) return { ok: false, error: 'unterminated double quote' };
      inWord = true;
      i = j;
    } else if (c === '\\' && line[i + 1] === '\n') {
      i++;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return { ok: true, words };
}
