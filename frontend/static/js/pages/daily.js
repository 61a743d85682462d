// The daily deal's page: copying the spoiler-free share text.

const copy = document.getElementById("share-copy");
const text = document.getElementById("share-text");

copy?.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(text.value);
  } catch {
    text.select(); // no clipboard here (an insecure origin): leave it selected to copy by hand
    return;
  }
  copy.textContent = copy.dataset.done;
});
