export * from './messages';
export * from './wording';
