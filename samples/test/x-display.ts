import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';

const run = promisify(execFile);

/**
 * A virtual X display (Xvfb) for driving a GUI sample with xdotool, with no window manager.
 * Xvfb picks a free display number itself (-displayfd), so parallel tests never collide, and
 * keeps its framebuffer in an XWD file (-fbdir): the screenshot is the real screen's pixels.
 */
export interface XDisplay {
  /** e.g. ":3", for the DISPLAY of the programs under test. */
  display: string;
  /** Runs xdotool on this display, killed after `timeoutMs`. */
  xdotool(args: string[], timeoutMs?: number): Promise<string>;
  /** The ids of the visible windows whose title matches the regular expression (none: []). */
  findWindows(titlePattern: string): Promise<string[]>;
  /** Waits for a visible window titled by the pattern, polling until `timeoutMs`. */
  waitForWindow(titlePattern: string, timeoutMs?: number): Promise<string>;
  /** Waits until no visible window is titled by the pattern. */
  waitForNoWindow(titlePattern: string, timeoutMs?: number): Promise<void>;
  windowGeometry(
    windowId: string,
  ): Promise<{ x: number; y: number; width: number; height: number }>;
  /** Moves the pointer, pauses (a click right after a move can land at the old place), clicks. */
  click(x: number, y: number): Promise<void>;
  /** The screen's pixels in a rectangle, as a PNG file; returns the number of distinct colours. */
  screenshot(
    path: string,
    area: { x: number; y: number; width: number; height: number },
  ): { distinctColours: number };
  close(): Promise<void>;
}

export async function startXDisplay(): Promise<XDisplay> {
  const framebufferDirectory = mkdtempSync(join(tmpdir(), 'latchkey-xvfb-'));
  const xvfb: ChildProcess = spawn(
    'Xvfb',
    [
      '-displayfd',
      '3',
      '-screen',
      '0',
      '1024x768x24',
      '-fbdir',
      framebufferDirectory,
      '-nolisten',
      'tcp',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let errors = '';
  xvfb.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const displayNumber = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start: ${errors}`)), 10_000);
    let text = '';
    const fd3 = xvfb.stdio[3] as NodeJS.ReadableStream;
    fd3.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    xvfb.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${errors}`));
    });
  });
  const display = `:${displayNumber}`;

  const xdotool = async (args: string[], timeoutMs = 10_000) => {
    const { stdout } = await run('xdotool', args, {
      env: { ...process.env, DISPLAY: display },
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    return stdout;
  };
  const findWindows = async (titlePattern: string) => {
    try {
      const output = await xdotool(['search', '--onlyvisible', '--name', titlePattern]);
      return output.split('\n').filter((line) => line.trim() !== '');
    } catch {
      return []; // xdotool search exits 1 when nothing matches
    }
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    display,
    xdotool,
    findWindows,
    async waitForWindow(titlePattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const [windowId] = await findWindows(titlePattern);
        if (windowId) return windowId;
        await sleep(100);
      }
      throw new Error(`no window titled ${titlePattern} within ${timeoutMs} ms`);
    },
    async waitForNoWindow(titlePattern, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if ((await findWindows(titlePattern)).length === 0) return;
        await sleep(100);
      }
      throw new Error(`a window titled ${titlePattern} is still there after ${timeoutMs} ms`);
    },
    async windowGeometry(windowId) {
      const output = await xdotool(['getwindowgeometry', '--shell', windowId]);
      const value = (name: string) => Number(new RegExp(`^${name}=(\\d+)$`, 'm').exec(output)?.[1]);
      return { x: value('X'), y: value('Y'), width: value('WIDTH'), height: value('HEIGHT') };
    },
    async click(x, y) {
      await xdotool(['mousemove', String(x), String(y)]);
      await sleep(150);
      await xdotool(['click', '1']);
    },
    screenshot(path, area) {
      const screen = readXwd(readFileSync(join(framebufferDirectory, 'Xvfb_screen0')));
      const rgb = Buffer.alloc(area.width * area.height * 3);
      const colours = new Set<number>();
      for (let row = 0; row < area.height; row += 1) {
        for (let column = 0; column < area.width; column += 1) {
          const colour = screen.pixel(area.x + column, area.y + row);
          colours.add(colour);
          rgb.writeUIntBE(colour, (row * area.width + column) * 3, 3);
        }
      }
      writeFileSync(path, encodePng(area.width, area.height, rgb));
      return { distinctColours: colours.size };
    },
    async close() {
      if (xvfb.exitCode === null) {
        const exited = new Promise((resolve) => xvfb.once('exit', resolve));
        xvfb.kill('SIGTERM');
        await Promise.race([exited, sleep(3_000)]);
        if (xvfb.exitCode === null) xvfb.kill('SIGKILL');
      }
      rmSync(framebufferDirectory, { recursive: true, force: true });
    },
  };
}

/** Reads a TrueColor ZPixmap XWD image (what Xvfb keeps in -fbdir) as 0xRRGGBB pixels. */
function readXwd(file: Buffer) {
  // The header is 25 CARD32s in the writer's byte order; file_version is always 7.
  const isBigEndian = file.readUInt32BE(4) === 7;
  const field = (index: number) =>
    isBigEndian ? file.readUInt32BE(index * 4) : file.readUInt32LE(index * 4);
  const [headerSize, , , , width, height] = [0, 1, 2, 3, 4, 5].map(field) as number[];
  const isPixelBigEndian = field(7) === 1;
  const bitsPerPixel = field(11);
  const bytesPerLine = field(12);
  const masks = [field(14), field(15), field(16)];
  const colourCount = field(19);
  if (bitsPerPixel !== 32) throw new Error(`unsupported XWD: ${bitsPerPixel} bits per pixel`);
  const pixelStart = headerSize! + colourCount * 12;
  const channel = (value: number, mask: number) => {
    const shift = Math.log2(mask & -mask);
    return ((value & mask) >>> shift) & 0xff;
  };
  return {
    width,
    height,
    pixel(x: number, y: number) {
      const offset = pixelStart + y * bytesPerLine + x * 4;
      const value = isPixelBigEndian ? file.readUInt32BE(offset) : file.readUInt32LE(offset);
      return (
        (channel(value, masks[0]!) << 16) |
        (channel(value, masks[1]!) << 8) |
        channel(value, masks[2]!)
      );
    },
  };
}

/** A minimal 8-bit RGB PNG: signature, IHDR, one IDAT (rows with filter 0), IEND. */
function encodePng(width: number, height: number, rgb: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, filter set 0, no interlace
  const rows = Buffer.alloc(height * (width * 3 + 1));
  for (let row = 0; row < height; row += 1) {
    rgb.copy(rows, row * (width * 3 + 1) + 1, row * width * 3, (row + 1) * width * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
