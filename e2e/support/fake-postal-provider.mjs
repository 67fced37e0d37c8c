// A stand-in for GEO API PT on loopback, answering in its real format (see
// apps/server/src/providers/postal-codes/geoapi-pt.ts), so journeys exercise the real lookup path.
import http from 'node:http';

const CODES = {
  '1000-001': { Distrito: 'Lisboa', Concelho: 'Lisboa', Localidade: 'Lisboa', partes: [{ Artéria: 'Rua dos Açores' }] },
  '4000-322': {
    Distrito: 'Porto',
    Concelho: 'Porto',
    Localidade: 'Porto',
    partes: [{ Artéria: 'Rua de Santa Catarina' }],
  },
};

export function startFakePostalProvider() {
  const server = http.createServer((request, response) => {
    const match = /^\/cp\/(\d{4}-\d{3})/.exec(request.url ?? '');
    const found = match && CODES[match[1]];
    response.setHeader('content-type', 'application/json; charset=utf-8');
    if (!found) {
      response.statusCode = 404;
      response.end(JSON.stringify({ erro: 'Postal Code not found!' }));
      return;
    }
    const [cp4, cp3] = match[1].split('-');
    response.end(
      JSON.stringify({
        CP: match[1],
        CP4: cp4,
        CP3: cp3,
        'Designação Postal': found.Localidade.toUpperCase(),
        ...found,
      }),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
