export interface User {
  id: number;
  name: string;
  email: string;
}

/** The name to show for a user: their name, or their e-mail when the name is empty. */
export function displayName(user: User): string {
  return user.name.trim() === '' ? user.email : user.name;
}
