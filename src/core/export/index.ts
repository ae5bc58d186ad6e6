// Export and import of conversations: the Markdown document, the lossless file (its format,
// version and schema), a range of turns, the import of that file into the store, and the archive
// of Export All and Import All.
export * from './markdown';
export * from './format';
export * from './importConversation';
export * from './turnRange';
export * from './archive';
export * from './allConversations';
