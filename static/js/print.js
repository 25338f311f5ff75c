// Print buttons on the table-open pages: a button with data-print opens the browser's print
// dialog (an inline onclick would be blocked by the site's Content-Security-Policy).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
