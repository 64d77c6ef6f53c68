// Writes each card of an npm deck made of React SVG components (such as @letele/playing-cards)
// as a plain SVG file, with a stand-in React whose createElement returns SVG text:
//   node react_to_svg.mjs <the package's dist/index.esm.js> <output folder>
import { mkdirSync, readFileSync, writeFileSync } from "fs";
import { join } from "path";
import { pathToFileURL } from "url";

const KEEP = new Set(["viewBox", "preserveAspectRatio", "patternUnits", "gradientUnits",
  "gradientTransform", "patternTransform", "stdDeviation", "clipPathUnits", "maskUnits",
  "patternContentUnits", "markerWidth", "markerHeight", "refX", "refY", "textLength",
  "lengthAdjust", "spreadMethod", "primitiveUnits", "filterUnits", "baseFrequency",
  "numOctaves"]);
const RENAMED = { className: "class", xlinkHref: "xlink:href", xmlnsXlink: "xmlns:xlink",
  xmlSpace: "xml:space" };

function attribute(name) {
  if (name in RENAMED) return RENAMED[name];
  if (KEEP.has(name)) return name;
  return name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
}

function quoted(value) {
  return String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function createElement(type, props, ...children) {
  let attributes = "";
  for (const [name, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || ["title", "titleId", "children"].includes(name)) {
      continue;
    }
    const text = name === "style" && typeof value === "object"
      ? Object.entries(value).map(([k, v]) => `${attribute(k)}:${v}`).join(";") : value;
    attributes += ` ${attribute(name)}="${quoted(text)}"`;
  }
  const inner = children.flat(Infinity)
    .filter((c) => c !== null && c !== undefined && c !== false).map(String).join("");
  return `<${type}${attributes}>${inner}</${type}>`;
}

const [source, out] = process.argv.slice(2);
globalThis.svgReact = { createElement };
const code = readFileSync(source, "utf8")
  .replace(/^import _extends from '@babel\/runtime\/helpers\/extends';$/m,
    "const _extends = (...parts) => Object.assign({}, ...parts);")
  .replace(/^import \* as React from 'react';$/m, "const React = globalThis.svgReact;");
mkdirSync(out, { recursive: true });
const module = join(out, "deck.mjs");
writeFileSync(module, code);
const deck = await import(pathToFileURL(module).href);
let count = 0;
for (const [name, card] of Object.entries(deck)) {
  if (typeof card === "function") {
    writeFileSync(join(out, `${name}.svg`), card({}));
    count += 1;
  }
}
console.log(`${count} cards written to ${out}`);
