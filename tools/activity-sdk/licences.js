// Prints the licence of every npm package esbuild put in the bundle (its metafile's inputs), each under its
// name and version: the LICENSES.txt kept beside the built file. The SDK's own build carries copies of the
// libraries it uses (output/lib/<name>/): their licences are read from the same packages installed beside it
// (package.json pins tslib for that alone).
"use strict";
const fs = require("fs");
const path = require("path");

const meta = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const roots = new Set();
for (const input of Object.keys(meta.inputs)) {
  const vendored = input.match(/embedded-app-sdk\/output\/lib\/([^/]+)\//);
  if (vendored) { roots.add(path.join("node_modules", vendored[1])); continue; }
  const match = input.match(/^(.*?node_modules\/(?:@[^/]+\/)?[^/]+)\//);
  if (match) { roots.add(match[1]); }
}
const parts = [];
for (const root of [...roots].sort()) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const file = fs.readdirSync(root).find((name) => /^(licen[cs]e|copying)/i.test(name));
  if (!file) { throw new Error(pkg.name + " has no licence file"); }
  const text = fs.readFileSync(path.join(root, file), "utf8").trim();
  parts.push(`${pkg.name} ${pkg.version} (${pkg.license})\n${"=".repeat(60)}\n${text}\n`);
}
process.stdout.write(
  "The licences of the packages bundled in discord-sdk.js (built by tools/activity-sdk/build.sh).\n\n" +
  parts.join("\n")
);
