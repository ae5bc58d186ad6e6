export * from './changeJournal';
export * from './fileBytes';
export * from './replyChanges';
