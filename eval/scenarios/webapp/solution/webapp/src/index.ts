/** Entry point of webapp: says hello in the page. */
export function main(): void {
  const heading = document.querySelector('h1');
  if (heading) heading.textContent = 'webapp is running';
}

main();
