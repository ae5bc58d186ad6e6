// The wording the panel shares with the extension host lives in src/wording (a leaf both may
// import); the panel's modules that name it here reach it through the protocol.
export * from '../wording';
