// Files dropped on the playground: from the desktop they are read here, as data URLs; from the
// Explorer (dragged with Shift) they arrive as URIs, which the host reads.
import type { Attachment } from '../../../shared/protocol/playground';

type Kind = 'images' | 'files';

export interface DropHandlers {
  files(kind: Kind, list: Attachment[]): void;
  uris(kind: Kind, uris: string[]): void;
  say(text: string): void;
}

export function acceptDrops(app: HTMLElement, on: DropHandlers): void {
  app.addEventListener('dragover', (e) => {
    e.preventDefault();
    app.classList.add('dropping');
  });
  app.addEventListener('dragleave', () => app.classList.remove('dropping'));
  app.addEventListener('drop', (e) => {
    e.preventDefault();
    app.classList.remove('dropping');
    const data = e.dataTransfer;
    if (!data) return;
    const files = [...data.files];
    if (files.length) return void readDropped(files, on);
    const uris = (data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list'))
      .split(/\r?\n/)
      .map((u) => u.trim())
      .filter((u) => u && !u.startsWith('#'));
    const images = uris.filter((u) => /\.(png|jpe?g|gif|webp)$/i.test(u));
    const others = uris.filter((u) => !images.includes(u));
    if (images.length) on.uris('images', images);
    if (others.length) on.uris('files', others);
  });
}

async function readDropped(files: File[], on: DropHandlers): Promise<void> {
  for (const file of files) {
    if (file.size > 10 * 1024 * 1024) {
      on.say(`${file.name} is larger than 10 MB.`);
      continue;
    }
    const dataUrl = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(file);
    });
    on.files(/^image\/(png|jpeg|gif|webp)$/.test(file.type) ? 'images' : 'files', [
      { name: file.name, size: file.size, dataUrl },
    ]);
  }
}
