// Resolves the app's "@/…" imports (tsconfig paths: @/* → src/*) for eslint-plugin-import, and
// everything else like Node does, trying the TypeScript extensions. A local file rather than
// eslint-import-resolver-typescript: that one needs platform binaries (unrs-resolver) that the
// package registry CI uses does not carry for every platform, which breaks `npm ci`.
const path = require('node:path');
const node = require('eslint-import-resolver-node');

exports.interfaceVersion = 2;

exports.resolve = (source, file, config) => {
  const target = source.startsWith('@/') ? path.join(__dirname, 'src', source.slice(2)) : source;
  return node.resolve(target, file, { extensions: ['.ts', '.tsx', '.js', '.jsx'], ...config });
};
