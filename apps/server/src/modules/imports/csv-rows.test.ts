import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, readCsvRecords } from './csv-rows.ts';

function syntaxErrorOf(read: () => unknown): CsvSyntaxError {
  try {
    read();
  } catch (error) {
    if (error instanceof CsvSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a CsvSyntaxError');
}

describe('readCsvRecords', () => {
  it('splits plain fields on the delimiter it is given', () => {
    expect(readCsvRecords('a,b;c\n1,2;3', ',')).toEqual([
      { lineNumber: 1, fields: ['a', 'b;c'] },
      { lineNumber: 2, fields: ['1', '2;3'] },
    ]);
    expect(readCsvRecords('a,b;c\n1,2;3', ';')).toEqual([
      { lineNumber: 1, fields: ['a,b', 'c'] },
      { lineNumber: 2, fields: ['1,2', '3'] },
    ]);
  });

  it('reads quoted fields holding the delimiter, line breaks and "" quotes', () => {
    const text = '"a,b","say ""hi""","two\r\nlines","",x\n';
    expect(readCsvRecords(text, ',')).toEqual([
      { lineNumber: 1, fields: ['a,b', 'say "hi"', 'two\r\nlines', '', 'x'] },
    ]);
  });

  it('ends records at CRLF, LF and a lone CR, keeping empty fields', () => {
    expect(readCsvRecords('a,b\r\n1,\n,2\r3,4\r\n', ',')).toEqual([
      { lineNumber: 1, fields: ['a', 'b'] },
      { lineNumber: 2, fields: ['1', ''] },
      { lineNumber: 3, fields: ['', '2'] },
      { lineNumber: 4, fields: ['3', '4'] },
    ]);
  });

  it('numbers a record by the line where it starts, counting lines inside quotes', () => {
    const text = 'h1;h2\n"one\ntwo\r\nthree";x\r\n"a""\n""b";y\nlast;z';
    expect(readCsvRecords(text, ';').map((record) => record.lineNumber)).toEqual([1, 2, 5, 7]);
  });

  it('skips empty and blank lines but counts them', () => {
    const records = readCsvRecords('h1,h2\n\n  \r\n1,2\n\n', ',');
    expect(records).toEqual([
      { lineNumber: 1, fields: ['h1', 'h2'] },
      { lineNumber: 4, fields: ['1', '2'] },
    ]);
  });

  it('keeps a line holding only an empty quoted field, which is a value', () => {
    expect(readCsvRecords('key\n""\n', ',')).toEqual([
      { lineNumber: 1, fields: ['key'] },
      { lineNumber: 2, fields: [''] },
    ]);
  });

  it('drops a byte-order mark', () => {
    expect(readCsvRecords('\uFEFF"id";name', ';')[0]?.fields).toEqual(['id', 'name']);
  });

  it('reads a bare NULL or \\N as null, but a quoted one as text', () => {
    const text = String.raw`NULL,\N,"NULL","\N",null,NULLS`;
    expect(readCsvRecords(text, ',')[0]?.fields).toEqual([
      null,
      null,
      'NULL',
      '\\N',
      'null',
      'NULLS',
    ]);
  });

  it('keeps a quote inside an unquoted field as text', () => {
    expect(readCsvRecords('5" disk,x', ',')[0]?.fields).toEqual(['5" disk', 'x']);
  });

  it('refuses text after a closing quote (backslash escaping), naming the line', () => {
    const error = syntaxErrorOf(() => readCsvRecords('a,b\n"1","2"\n"say \\"hi\\"",x\n', ','));
    expect(error.lineNumber).toBe(3);
    expect(error.message).toBe(
      'line 3: text follows a closing quote; a quote inside a quoted field must be written ""',
    );
  });

  it('refuses a quoted field that is never closed, naming the line it opens on', () => {
    const error = syntaxErrorOf(() => readCsvRecords('a,b\n1,2\n3,"open\n4,5\n', ','));
    expect(error.message).toBe('line 3: a quoted field is never closed');
  });

  // csv-parse's info.lines counts a CRLF inside quotes twice and its errors name the last line
  // read; relax_quotes lets text after a closing quote through. These pin what is added around it.

  it('keeps a quote escaped at the start or the end of a quoted field', () => {
    expect(readCsvRecords('"""a",b\n"a""""",c\n', ',')).toEqual([
      { lineNumber: 1, fields: ['"a', 'b'] },
      { lineNumber: 2, fields: ['a""', 'c'] },
    ]);
  });

  it('keeps a line of spaces holding a delimiter, which is a record of empty values', () => {
    expect(readCsvRecords('  ,\n \t\u3000\r\nx,y', ',')).toEqual([
      { lineNumber: 1, fields: ['  ', ''] },
      { lineNumber: 3, fields: ['x', 'y'] },
    ]);
  });

  it('names the line of a stray closing quote inside a record of several lines', () => {
    const error = syntaxErrorOf(() => readCsvRecords('h,i\n"é\nab"c,d\n', ','));
    expect(error.lineNumber).toBe(3);
  });

  it('names the line where a never-closed quote opens, not the last line', () => {
    const error = syntaxErrorOf(() => readCsvRecords('h,i\n"a\r\nb","open\nx\n\n', ','));
    expect(error.message).toBe('line 3: a quoted field is never closed');
  });

  it('reports a stray closing quote before a quote never closed after it', () => {
    expect(syntaxErrorOf(() => readCsvRecords('a,b\n"1"x,2\n"open\n', ',')).message).toBe(
      'line 2: text follows a closing quote; a quote inside a quoted field must be written ""',
    );
    expect(syntaxErrorOf(() => readCsvRecords('"a"b;"open', ';')).lineNumber).toBe(1);
  });
});
