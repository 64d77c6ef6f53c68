// The setup page: keep the calibration status fresh while the picture streams.
"use strict";
async function refresh() {
  try {
    const status = await (await fetch("api/camera")).json();
    const line = document.getElementById("calibration");
    line.textContent = status.text || "";
    line.dataset.calibrated = status.calibrated ? "yes" : "no";
    const rows = Object.entries(status).filter(([k]) => k !== "text").map(([k, v]) => {
      const tr = document.createElement("tr");
      for (const text of [k, typeof v === "object" ? JSON.stringify(v) : String(v)]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    });
    document.getElementById("details").replaceChildren(...rows);
  } catch (e) { /* the next round tries again */ }
}
setInterval(refresh, 2000);
