// Progressive enhancement (issues 15 and 25): Copy buttons for browsers with script and a
// clipboard, on the one-time key reveal (`button[data-copy]`) and under every code snippet
// (`main pre`). Without script the key is still selected whole by one click (`user-select: all`).
const copier = (button, text, failure) => {
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text());
      button.textContent = 'Copied';
      setTimeout(() => {
        button.textContent = 'Copy';
      }, 2000);
    } catch {
      button.textContent = failure;
    }
  });
};
if (navigator.clipboard) {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const target = document.getElementById(button.dataset.copy);
    if (target) copier(button, () => target.textContent.trim(), 'Copy failed: select the key and copy it');
  }
  for (const pre of document.querySelectorAll('main pre')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy snippet-copy';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy this snippet');
    pre.after(button);
    copier(button, () => pre.textContent.trim(), 'Copy failed: select the text and copy it');
  }
}
