// Writes each face of npm @letele/playing-cards (React components) as an SVG file:
//   node bench/letele_svg.mjs PACKAGE_DIR OUT_DIR
// A stand-in for React.createElement turns the components into SVG text.
import fs from "node:fs";
import path from "node:path";

const [pkg, out] = process.argv.slice(2);
let src = fs.readFileSync(path.join(pkg, "dist", "index.esm.js"), "utf8");
src = src.replace(/^import .*$/gm, "").replace(/export \{([^}]*)\};/, (_, names) =>
  "return {" + names.replace(/(\w+) as (\w+)/g, "$2: $1") + "};");
const esc = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const attr = (k) => (k === "className" ? "class" : k.startsWith("xlink")
  ? "xlink:" + k.slice(5).toLowerCase()
  : k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()));
const keep = new Set(["viewBox", "preserveAspectRatio", "gradientUnits", "patternUnits",
  "gradientTransform", "patternTransform", "stdDeviation"]);
const React = {
  createElement(tag, props, ...kids) {
    if (typeof tag === "function") return tag({ ...(props || {}), children: kids });
    const a = Object.entries(props || {}).filter(([k, v]) => v != null && k !== "children"
      && !k.startsWith("aria"))
      .map(([k, v]) => ` ${keep.has(k) ? k : attr(k)}="${esc(v)}"`).join("");
    const ns = tag === "svg" ? ' xmlns:xlink="http://www.w3.org/1999/xlink"' : "";
    return `<${tag}${ns}${a}>${kids.flat().filter((k) => k != null).join("")}</${tag}>`;
  },
};
const _extends = (...objs) => Object.assign({}, ...objs);
const parts = new Function("React", "_extends", src)(React, _extends);
fs.mkdirSync(out, { recursive: true });
for (const [name, component] of Object.entries(parts)) {
  fs.writeFileSync(path.join(out, `${name}.svg`), component({}));
}
