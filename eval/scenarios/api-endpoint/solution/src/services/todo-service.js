import { readFileSync } from 'node:fs';

const TODOS_FILE = new URL('../../data/todos.json', import.meta.url);

/** The todos of data/todos.json. */
export class TodoService {
  constructor(todos = JSON.parse(readFileSync(TODOS_FILE, 'utf8'))) {
    this.todos = todos;
  }

  /** The todo with this id, or undefined. */
  findById(id) {
    return this.todos.find((todo) => todo.id === Number(id));
  }
}
