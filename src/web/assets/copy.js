// Progressive enhancement of the one-time key reveal (issue 15): a Copy button for browsers with
// script and a clipboard. Without it, the key is still selected whole by one click
// (`user-select: all` in vitrine.css).
for (const button of document.querySelectorAll('button[data-copy]')) {
  const target = document.getElementById(button.dataset.copy);
  if (!target || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(target.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the key and copy it';
    }
  });
}
