// Prints its argument. (To do: print it as a slug.)
console.log(process.argv.slice(2).join(' '));
