import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

/**
 * A PNG of part of an Xvfb screen, read from the framebuffer file Xvfb keeps with `-fbdir`
 * (XWD format, ZPixmap, 24 or 32 bits per pixel): no screenshot tool to install. Returns how
 * many distinct colours the region has, so a test can tell a drawn window from a blank one.
 */
export function saveScreenRegionAsPng(
  framebufferFile: string,
  region: { x: number; y: number; width: number; height: number },
  pngFile: string,
): { distinctColours: number } {
  const xwd = readFileSync(framebufferFile);
  const field = (index: number) => xwd.readUInt32BE(index * 4);
  const headerSize = field(0);
  const [pixmapFormat, screenWidth, screenHeight] = [field(2), field(4), field(5)];
  const [byteOrder, bitsPerPixel, bytesPerLine] = [field(7), field(11), field(12)];
  const [redMask, greenMask, blueMask, colourCount] = [field(14), field(15), field(16), field(19)];
  if (pixmapFormat !== 2 || (bitsPerPixel !== 32 && bitsPerPixel !== 24)) {
    throw new Error(
      `unsupported XWD image: format ${pixmapFormat}, ${bitsPerPixel} bits per pixel`,
    );
  }
  const pixelsStart = headerSize + colourCount * 12;
  const bytesPerPixel = bitsPerPixel / 8;
  const x0 = Math.max(0, region.x);
  const y0 = Math.max(0, region.y);
  const width = Math.min(region.width, screenWidth - x0);
  const height = Math.min(region.height, screenHeight - y0);
  const channel = (pixel: number, mask: number) => {
    const shift = Math.log2(mask & -mask);
    return (pixel & mask) >>> shift;
  };

  const raw = Buffer.alloc(height * (1 + width * 3));
  const colours = new Set<number>();
  for (let row = 0; row < height; row += 1) {
    const rowStart = row * (1 + width * 3);
    raw[rowStart] = 0; // filter: none
    for (let column = 0; column < width; column += 1) {
      const offset = pixelsStart + (y0 + row) * bytesPerLine + (x0 + column) * bytesPerPixel;
      let pixel = 0;
      for (let byte = 0; byte < bytesPerPixel; byte += 1) {
        const value = xwd[offset + (byteOrder === 0 ? byte : bytesPerPixel - 1 - byte)]!;
        pixel |= value << (8 * byte);
      }
      pixel >>>= 0;
      const rgb = [channel(pixel, redMask), channel(pixel, greenMask), channel(pixel, blueMask)];
      raw.set(rgb, rowStart + 1 + column * 3);
      colours.add((rgb[0]! << 16) | (rgb[1]! << 8) | rgb[2]!);
    }
  }

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  writeFileSync(
    pngFile,
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', header),
      pngChunk('IDAT', deflateSync(raw)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]),
  );
  return { distinctColours: colours.size };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const crcTable = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) {
    value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  }
  return value >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
