/** Saves `text` as a file named `filename` through the browser's own download. */
export function downloadTextFile(
  filename: string,
  text: string,
  type = 'text/plain;charset=utf-8',
): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the URL to the download: revoking it at once can cancel it.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
