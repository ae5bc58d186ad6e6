// Export and import of conversations: the Markdown document, the lossless file (its format,
// version and schema) and the import of that file into the store.
export * from './markdown';
export * from './format';
export * from './importConversation';
