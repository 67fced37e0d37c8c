/**
 * The baseline of `npm run bench`: a bare Fastify 5 hello-world, run in its own process (as the application
 * is), so every ratio in the table compares the application with the most Fastify can do on this machine
 * at that moment. Listens on 127.0.0.1:$PORT and answers GET / with {"hello":"world"}.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void app.close().then(() => process.exit(0)));
