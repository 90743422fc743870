// The table's scan board on an emulated RP2040 (rp2040js, npm): MicroPython's rp2 image in
// flash, the firmware on its LittleFS, the parts on the board modelled at their pins, and
// the USB CDC serial port as the host's line. Time is the chip's own (emulated at 125 MHz):
// it moves only when the host asks, so every run is repeatable.
//
//   node rp2040-table.mjs CONFIG.json
//
// CONFIG (written by kiosk/simtable/rp2040.py from firmware/board.py and the image's
// geometry): rp2040js (its package folder), bootrom, firmware (flat image at flash 0),
// filesystem + storage_base (the LittleFS image and where it lies in flash), pins,
// rows, columns, well_bits, well_inputs (each well's cells' chain inputs), maintenance
// (jumper fitted).
//
// Requests, one JSON object a line on stdin; each gets one line back on stdout:
//   {"op":"run","us":N}          run N µs of chip time -> {"t":µs,"out":hex,"led":n}
//   {"op":"closed","switches":[...]}  the closed reeds, by switch number -> {"ok":true}
//   {"op":"wells","cells":[m1,m2]}     each well's Hall switches on (bit set) -> {"ok":true}
//   {"op":"send","data":hex}     bytes from the host to the table's USB port -> {"ok":true}
//   {"op":"stuck","columns":m}   columns shorted low whatever the row -> {"ok":true}
//   {"op":"stall","on":bool}     the host stops (or resumes) reading -> {"ok":true}
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { RP2040, USBCDC, GPIOPinState, ConsoleLogger, LogLevel } = await import(
  pathToFileURL(`${config.rp2040js}/dist/esm/index.js`).href
);
// stdout carries the answers alone: the emulator's own messages go to stderr
console.log = console.info = console.debug = console.warn = console.error;

const mcu = new RP2040();
mcu.logger = new ConsoleLogger(LogLevel.Error);
const rom = readFileSync(config.bootrom);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
mcu.flash.set(readFileSync(config.firmware), 0);
mcu.flash.set(readFileSync(config.filesystem), config.storage_base);
mcu.core.PC = 0x10000000; // boot stage 2 at the start of flash, as the boot ROM would jump

const pins = config.pins;
const gpio = (n) => mcu.gpio[n];
const high = (state) => state === GPIOPinState.High;

// -- the row chain: 74HC595s, Q0 of the first is row 0; a row is selected while low --------
const rowMask = 2 ** config.rows - 1;
let shift = rowMask; // power-up contents do not matter: the firmware deselects first
let latched = rowMask;
let closed = new Set();
let closedByRow = []; // per row, the columns (bitmask) whose reed is closed

function setClosed(switches) {
  closed = new Set(switches);
  closedByRow = new Array(config.rows).fill(0);
  for (const s of closed) {
    const row = Math.floor(s / config.columns);
    if (row < config.rows) closedByRow[row] |= 1 << (s % config.columns);
  }
  driveColumns();
}

let columnLevels = -1;
let stuckColumns = 0;
function driveColumns() {
  // a column reads low when a closed reed joins it to a selected (low) row, through its diode
  let low = stuckColumns;
  for (let row = 0; row < config.rows; row++) {
    if (!((latched / 2 ** row) & 1)) low |= closedByRow[row] || 0;
  }
  if (low === columnLevels) return;
  columnLevels = low;
  for (let c = 0; c < config.columns; c++) {
    gpio(pins.first_column + c).setInputValue(!((low >> c) & 1)); // pulled up
  }
}

gpio(pins.srclk).addListener((state, old) => {
  if (high(state) && !high(old)) {
    const bit = gpio(pins.ser).outputValue ? 1 : 0;
    shift = (shift * 2 + bit) % 2 ** config.rows;
  }
});
gpio(pins.rclk).addListener((state, old) => {
  if (high(state) && !high(old)) {
    latched = shift;
    driveColumns();
  }
});

// -- the wells: a chain of 74HC165, QH of the first to the Pico; SH/LD low loads ---------
let wellCells = [0, 0];
let chain = 0; // bit 0 is the level on QH now
function wellInputs() {
  // a Hall switch that is on pulls its input low; config.well_inputs[w][c] is the chain's
  // input that well w's cell c is wired to
  let levels = 2 ** config.well_bits - 1;
  wellCells.forEach((cells, well) => {
    config.well_inputs[well].forEach((input, cell) => {
      if ((cells >> cell) & 1) levels -= 2 ** input;
    });
  });
  return levels;
}
gpio(pins.well_load).addListener((state) => {
  if (!high(state)) {
    chain = wellInputs();
    gpio(pins.well_data).setInputValue(!!(chain & 1));
  }
});
gpio(pins.well_clock).addListener((state, old) => {
  if (high(state) && !high(old) && high(gpio(pins.well_load).value)) {
    chain = Math.floor(chain / 2) | 2 ** (config.well_bits - 1); // the last SER is pulled up
    gpio(pins.well_data).setInputValue(!!(chain & 1));
  }
});

// -- the maintenance jumper (to GND) and the LED ------------------------------------------
gpio(pins.maintenance).setInputValue(!config.maintenance);
let ledChanges = 0;
gpio(pins.led).addListener((state, old) => {
  if (high(state) !== high(old)) ledChanges++;
});
setClosed([]);
gpio(pins.well_data).setInputValue(true);

// -- USB: the host's side of the CDC line ---------------------------------------------------
const cdc = new USBCDC(mcu.usbCtrl);
let received = [];
cdc.onSerialData = (buffer) => {
  for (const b of buffer) received.push(b);
};
// A host that stops reading: the IN transfers the chip arms are not completed until it reads.
let stalled = false;
const held = [];
const indicate = mcu.usbCtrl.indicateBufferReady.bind(mcu.usbCtrl);
mcu.usbCtrl.indicateBufferReady = (endpoint, out) => {
  if (stalled && !out && endpoint === cdc.inEndpoint) held.push(endpoint);
  else indicate(endpoint, out);
};

// -- the chip's time ------------------------------------------------------------------------
const clock = mcu.clock;
const cycleNanos = 1e9 / 125e6;
function run(us) {
  const until = clock.nanos + us * 1000;
  const { core } = mcu;
  while (clock.nanos < until) {
    if (core.waiting) {
      const next = Math.min(clock.nanosToNextAlarm, until - clock.nanos);
      clock.tick(Math.max(next, cycleNanos));
    } else {
      clock.tick(core.executeInstruction() * cycleNanos);
    }
  }
}

function hex(bytes) {
  return Buffer.from(bytes).toString('hex');
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  let answer = { ok: true };
  if (request.op === 'run') {
    run(request.us);
    answer = { t: Math.floor(clock.nanos / 1000), out: hex(received), led: ledChanges };
    received = [];
  } else if (request.op === 'closed') {
    setClosed(request.switches);
  } else if (request.op === 'wells') {
    wellCells = request.cells;
  } else if (request.op === 'send') {
    for (const b of Buffer.from(request.data, 'hex')) cdc.sendSerialByte(b);
  } else if (request.op === 'stuck') {
    stuckColumns = request.columns;
    driveColumns();
  } else if (request.op === 'stall') {
    stalled = !!request.on;
    if (!stalled) while (held.length) indicate(held.shift(), false);
  } else {
    answer = { error: `unknown op ${request.op}` };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
