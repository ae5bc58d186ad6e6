// Export and import of conversations: the Markdown document, the lossless file (its format,
// version and schema), a range of turns, and the import of that file into the store.
export * from './markdown';
export * from './format';
export * from './importConversation';
export * from './turnRange';
