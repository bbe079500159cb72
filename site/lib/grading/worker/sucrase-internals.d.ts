// Types for the two sucrase modules the sandbox imports by path (sucrase's own tokenizer, used to
// rebuild its output without comments; sucrase has no "exports" map, so these paths are stable
// for the pinned version).
declare module 'sucrase/dist/esm/parser/index.js' {
  export { parse } from 'sucrase/dist/types/parser/index';
}
declare module 'sucrase/dist/esm/parser/tokenizer/index.js' {
  export { IdentifierRole } from 'sucrase/dist/types/parser/tokenizer/index';
}
declare module 'sucrase/dist/esm/parser/tokenizer/types.js' {
  export { TokenType } from 'sucrase/dist/types/parser/tokenizer/types';
}
