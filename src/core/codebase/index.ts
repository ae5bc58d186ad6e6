// The codebase index (find the files that answer a question, on the machine): tokenizer, ranking,
// file rules, persistence and the per-folder indexer the extension's worker runs.
export * from './tokenize';
export * from './symbols';
export * from './fileRules';
export * from './codebaseIndex';
export * from './persist';
export * from './indexer';
export * from './workerProtocol';
export * from './describe';
