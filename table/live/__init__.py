"""The whole table in one process: `pinochle-table run`.

- `hardware`: what is plugged in (the Pi camera, the GPIO pins, the serial board), or what the
  command line says to use instead.
- `keeper`: marks what nobody can see (the face-down bury, cards passed face down).
- `camera`: frames through the vision tracker into the session, with its alerts, the deal
  marked when the mat is clear, and the picture for the page's setup view.
- `phone`: the page's JSON API as a phone at the table uses it (with the PIN).
- `sim`: simulated players who play through all of the above, mistakes included, and the
  simulated camera over the rendered mat.
- `runner`: puts it together, serves the page, and stops cleanly.
"""
