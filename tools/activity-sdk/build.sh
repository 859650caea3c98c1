#!/bin/sh
# Rebuilds bot/web/static/activity/discord-sdk.js from the pinned @discord/embedded-app-sdk (package.json,
# package-lock.json): one script for the browser, the SDK's DiscordSDK class as window.DiscordSDK, and beside
# it LICENSES.txt, the licence of every package the bundle holds. Needs Node.js and npm (nothing else of the
# project does); run it from anywhere: sh tools/activity-sdk/build.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../bot/web/static/activity"
cd "$here"
npm ci --no-audit --no-fund
mkdir -p "$out"
node_modules/.bin/esbuild entry.js --bundle --format=iife --minify --target=es2019 --charset=utf8 \
  --legal-comments=none --metafile="$here/meta.json" --outfile="$out/discord-sdk.js"
node licences.js "$here/meta.json" > "$out/LICENSES.txt"
rm -f "$here/meta.json"
echo "built $out/discord-sdk.js"
