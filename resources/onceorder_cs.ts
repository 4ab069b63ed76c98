<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="cs_CZ">
<context>
    <name>CliRunner</name>
    <message>
        <source>%1 (see --help)</source>
        <translation>%1 (viz --help)</translation>
    </message>
    <message>
        <source>--%1 wants a whole number from %2 to %3</source>
        <translation>--%1 chce celé číslo od %2 do %3</translation>
    </message>
    <message>
        <source>Places orders exactly once, from a terminal.

Commands:
  submit   order --quantity of --product (one cart) and wait for the outcome
  resume   finish the pending submissions a crashed run left behind
  status   list every submission in the state folder</source>
        <translation>Vytváří objednávky právě jednou, z terminálu.

Příkazy:
  submit   objedná --quantity kusů zboží --product (jeden košík) a počká na výsledek
  resume   dokončí rozpracovaná odeslání, která zanechal spadlý běh
  status   vypíše všechna odeslání ze složky stavu</translation>
    </message>
    <message>
        <source>Shows this help.</source>
        <translation>Zobrazí tuto nápovědu.</translation>
    </message>
    <message>
        <source>Shows the version.</source>
        <translation>Zobrazí verzi.</translation>
    </message>
    <message>
        <source>Product to order (submit).</source>
        <translation>Zboží k objednání (submit).</translation>
    </message>
    <message>
        <source>Quantity (submit); default 1.</source>
        <translation>Množství (submit); výchozí 1.</translation>
    </message>
    <message>
        <source>Pay now with this method, e.g. card (submit): the order goes through POST /checkout, with the payment gateway in the middle.</source>
        <translation>Zaplatit hned tímto způsobem, např. „card“ (submit): objednávka jde přes POST /checkout a platební bránu.</translation>
    </message>
    <message>
        <source>Give up retrying after this many seconds (default 900).</source>
        <translation>Vzdát opakování po tolika sekundách (výchozí 900).</translation>
    </message>
    <message>
        <source>Backoff base (default 500).</source>
        <translation>Základ prodlevy mezi pokusy (výchozí 500).</translation>
    </message>
    <message>
        <source>Backoff cap (default 30000).</source>
        <translation>Nejdelší prodleva mezi pokusy (výchozí 30000).</translation>
    </message>
    <message>
        <source>Per-attempt transfer timeout (default 10000).</source>
        <translation>Časový limit přenosu jednoho pokusu (výchozí 10000).</translation>
    </message>
    <message>
        <source>command</source>
        <translation>příkaz</translation>
    </message>
    <message>
        <source>submit, resume or status</source>
        <translation>submit, resume nebo status</translation>
    </message>
    <message>
        <source>expected one command: submit, resume or status</source>
        <translation>čekám jeden příkaz: submit, resume nebo status</translation>
    </message>
    <message>
        <source>submit needs --product P and a positive --quantity N</source>
        <translation>submit potřebuje --product P a kladné --quantity N</translation>
    </message>
    <message>
        <source>--pay needs a payment method, e.g. --pay card</source>
        <translation>--pay potřebuje způsob platby, např. --pay card</translation>
    </message>
    <message>
        <source>nothing pending to resume</source>
        <translation>nic nečeká na dokončení</translation>
    </message>
    <message>
        <source>Cart id (submit); default a new one. A cart id names one order: submitting one that is still pending retries it with its key; one already placed answers with its order and sends nothing.</source>
        <translation>Id košíku (submit); výchozí je nové. Id košíku označuje jednu objednávku: odeslání košíku, který ještě čeká, ho zopakuje s jeho klíčem; již objednaný košík odpoví svou objednávkou a nic neodešle.</translation>
    </message>
    <message>
        <source>Order the lines as a new cart with a new cart id (submit), even when --cart-id names a cart already placed: on purpose, one more order.</source>
        <translation>Objedná položky jako nový košík s novým id (submit), i když --cart-id jmenuje košík již objednaný: záměrně ještě jedna objednávka.</translation>
    </message>
    <message>
        <source>cart %1 is already placed (order %2); nothing was sent. To order the same lines once more, submit them with --new-cart-id</source>
        <translation>košík %1 je již objednán (objednávka %2); nic nebylo odesláno. Chcete-li stejné položky objednat znovu, odešlete je s --new-cart-id</translation>
    </message>
    <message numerus="yes">
        <source>asking the server whether it holds an order for %n cart(s) whose outcome is not confirmed</source>
        <translation>
            <numerusform>ptám se serveru, zda má objednávku pro %n košík, jehož výsledek není potvrzen</numerusform>
            <numerusform>ptám se serveru, zda má objednávky pro %n košíky, jejichž výsledek není potvrzen</numerusform>
            <numerusform>ptám se serveru, zda má objednávky pro %n košíků, jejichž výsledek není potvrzen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ClientOptions</name>
    <message>
        <source>Use the server at URL instead of starting the bundled one.</source>
        <translation>Použít server na adrese URL místo spuštění přibaleného.</translation>
    </message>
    <message>
        <source>API key (client identity); default demo-key-A.</source>
        <translation>API klíč (identita klienta); výchozí demo-key-A.</translation>
    </message>
    <message>
        <source>Folder of the client&apos;s state database.</source>
        <translation>Složka se stavovou databází klienta.</translation>
    </message>
    <message>
        <source>Language: en or cs (default: the system&apos;s).</source>
        <translation>Jazyk: en nebo cs (výchozí: podle systému).</translation>
    </message>
    <message>
        <source>--server wants an http:// or https:// URL, got &quot;%1&quot;</source>
        <translation>--server chce adresu http:// nebo https://, dostal „%1“</translation>
    </message>
    <message>
        <source>--api-key must not be empty</source>
        <translation>--api-key nesmí být prázdný</translation>
    </message>
    <message>
        <source>--lang wants en or cs, got &quot;%1&quot;</source>
        <translation>--lang chce en nebo cs, dostal „%1“</translation>
    </message>
    <message>
        <source>Play teaching scenarios headless, without a window: a scenario id, all, or list (prints the ids).</source>
        <translation>Přehrát výukové scénáře bez okna: id scénáře, all (všechny) nebo list (vypíše id).</translation>
    </message>
    <message>
        <source>With --scenario: also write each scenario&apos;s table (.md, .csv) and chart (.png, .svg) into DIR.</source>
        <translation>S --scenario: uložit do složky DIR také tabulku každého scénáře (.md, .csv) a jeho graf (.png, .svg).</translation>
    </message>
    <message>
        <source>--export-dir applies only with --scenario</source>
        <translation>--export-dir platí jen spolu s --scenario</translation>
    </message>
</context>
<context>
    <name>HttpReplyText</name>
    <message>
        <source>The body is not valid JSON</source>
        <translation>Tělo požadavku není platný JSON</translation>
    </message>
    <message>
        <source>The body must be JSON</source>
        <translation>Tělo požadavku musí být JSON</translation>
    </message>
    <message>
        <source>The body is too large</source>
        <translation>Tělo požadavku je příliš velké</translation>
    </message>
    <message>
        <source>Invalid limit</source>
        <translation>Neplatný limit</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Nenalezeno</translation>
    </message>
    <message>
        <source>HTTP error</source>
        <translation>Chyba HTTP</translation>
    </message>
    <message>
        <source>Internal server error</source>
        <translation>Vnitřní chyba serveru</translation>
    </message>
    <message>
        <source>Authentication required</source>
        <translation>Je třeba se přihlásit</translation>
    </message>
    <message>
        <source>Unknown API key</source>
        <translation>Neznámý API klíč</translation>
    </message>
    <message>
        <source>The operator places no orders</source>
        <translation>Operátor nevytváří objednávky</translation>
    </message>
    <message>
        <source>Only the operator may set stock</source>
        <translation>Sklad smí měnit jen operátor</translation>
    </message>
    <message>
        <source>Debug endpoints answer only loopback</source>
        <translation>Ladicí adresy odpovídají jen místnímu počítači</translation>
    </message>
    <message>
        <source>Debug endpoints refuse other origins</source>
        <translation>Ladicí adresy odmítají jiné původy</translation>
    </message>
    <message>
        <source>Debug endpoints answer only a loopback Host</source>
        <translation>Ladicí adresy odpovídají jen místnímu Host</translation>
    </message>
    <message>
        <source>One Host header required</source>
        <translation>Je třeba právě jedna hlavička Host</translation>
    </message>
    <message>
        <source>The body&apos;s framing cannot be read</source>
        <translation>Ohraničení těla požadavku nelze přečíst</translation>
    </message>
    <message>
        <source>The request target is too long</source>
        <translation>Cíl požadavku je příliš dlouhý</translation>
    </message>
    <message>
        <source>The request&apos;s header fields are too large</source>
        <translation>Hlavičky požadavku jsou příliš velké</translation>
    </message>
    <message>
        <source>Transfer coding not implemented</source>
        <translation>Kódování přenosu není podporováno</translation>
    </message>
    <message>
        <source>Too many connections</source>
        <translation>Příliš mnoho spojení</translation>
    </message>
    <message>
        <source>Too many bodies in flight</source>
        <translation>Příliš mnoho rozpracovaných požadavků</translation>
    </message>
    <message>
        <source>Debug POSTs take a JSON object</source>
        <translation>Ladicí POST bere objekt JSON</translation>
    </message>
    <message>
        <source>Idempotency-Key required</source>
        <translation>Chybí Idempotency-Key</translation>
    </message>
    <message>
        <source>Invalid Idempotency-Key</source>
        <translation>Neplatný Idempotency-Key</translation>
    </message>
    <message>
        <source>Idempotency-Key reused with another payload</source>
        <translation>Idempotency-Key znovu použit s jinými daty</translation>
    </message>
    <message>
        <source>A request with this key is still in progress</source>
        <translation>Požadavek s tímto klíčem ještě probíhá</translation>
    </message>
    <message>
        <source>The order is not valid</source>
        <translation>Objednávka není platná</translation>
    </message>
    <message>
        <source>Unknown product</source>
        <translation>Neznámé zboží</translation>
    </message>
    <message>
        <source>Invalid payment method</source>
        <translation>Neplatný způsob platby</translation>
    </message>
    <message>
        <source>Invalid stock</source>
        <translation>Neplatný stav skladu</translation>
    </message>
    <message>
        <source>This cart has already been ordered</source>
        <translation>Tento košík už byl objednán</translation>
    </message>
    <message>
        <source>Not enough stock</source>
        <translation>Nedostatek zboží na skladě</translation>
    </message>
    <message>
        <source>The payment was declined</source>
        <translation>Platba byla zamítnuta</translation>
    </message>
    <message>
        <source>The service is unavailable</source>
        <translation>Služba je nedostupná</translation>
    </message>
    <message>
        <source>Not ready</source>
        <translation>Nepřipraveno</translation>
    </message>
    <message>
        <source>The database is unavailable</source>
        <translation>Databáze je nedostupná</translation>
    </message>
    <message>
        <source>Temporary failure</source>
        <translation>Dočasná chyba</translation>
    </message>
    <message>
        <source>The payment gateway did not answer</source>
        <translation>Platební brána neodpověděla</translation>
    </message>
    <message>
        <source>The payment gateway is unavailable</source>
        <translation>Platební brána je nedostupná</translation>
    </message>
    <message>
        <source>Invalid webhook event</source>
        <translation>Neplatná událost webhooku</translation>
    </message>
    <message>
        <source>Invalid webhook signature</source>
        <translation>Neplatný podpis webhooku</translation>
    </message>
    <message>
        <source>Unknown payment reference</source>
        <translation>Neznámá reference platby</translation>
    </message>
    <message>
        <source>Invalid fault</source>
        <translation>Neplatná chyba</translation>
    </message>
    <message>
        <source>Invalid mode</source>
        <translation>Neplatný režim</translation>
    </message>
    <message>
        <source>Invalid replication setting</source>
        <translation>Neplatné nastavení replikace</translation>
    </message>
    <message>
        <source>only the stock on hand can be ordered; &quot;%1&quot; has fewer than %2 pieces</source>
        <translation>objednat lze jen to, co je skladem; „%1“ je méně než %2 kusů</translation>
    </message>
    <message>
        <source>cart &quot;%1&quot; was ordered as order %2 under another Idempotency-Key</source>
        <translation>košík „%1“ už byl objednán jako objednávka %2 s jiným Idempotency-Key</translation>
    </message>
    <message>
        <source>there is no product &quot;%1&quot;</source>
        <translation>zboží „%1“ neexistuje</translation>
    </message>
    <message>
        <source>the payment gateway declined the payment; the order was cancelled and nothing was charged</source>
        <translation>platební brána platbu zamítla; objednávka byla zrušena a nic se nestrhlo</translation>
    </message>
    <message>
        <source>this key was first used for a different request; a retry must send exactly the same command, a new order needs a new key</source>
        <translation>tento klíč byl poprvé použit pro jiný požadavek; opakování musí poslat přesně stejný příkaz, nová objednávka potřebuje nový klíč</translation>
    </message>
    <message>
        <source>the first request with this Idempotency-Key has not finished; retry later with the same key</source>
        <translation>první požadavek s tímto Idempotency-Key ještě neskončil; zkuste to později se stejným klíčem</translation>
    </message>
    <message>
        <source>the server is refusing work for a moment (injected fault); retry later with the same key</source>
        <translation>server chvíli odmítá práci (nastavená chyba); zkuste to později se stejným klíčem</translation>
    </message>
    <message>
        <source>the database cannot be reached or is busy for a moment; nothing was changed, retry later</source>
        <translation>databáze je nedostupná nebo chvíli vytížená; nic se nezměnilo, zkuste to později</translation>
    </message>
    <message>
        <source>the server is as busy as it can be; try again in a moment</source>
        <translation>server je plně vytížen; zkuste to za chvíli</translation>
    </message>
    <message>
        <source>a temporary failure; what was done so far is kept, retry with the same key to continue</source>
        <translation>dočasná chyba; co už je hotové, zůstává, pokračujte opakováním se stejným klíčem</translation>
    </message>
    <message>
        <source>a temporary failure; the whole transaction was rolled back, retry with the same key</source>
        <translation>dočasná chyba; celá transakce byla vrácena, zopakujte to se stejným klíčem</translation>
    </message>
    <message>
        <source>the payment gateway failed; what was done so far is kept, retry with the same key to continue</source>
        <translation>platební brána selhala; co už je hotové, zůstává, pokračujte opakováním se stejným klíčem</translation>
    </message>
    <message>
        <source>the request needs an Idempotency-Key header (one per cart, reused on every retry)</source>
        <translation>požadavek potřebuje hlavičku Idempotency-Key (jednu na košík, stejnou při každém opakování)</translation>
    </message>
    <message>
        <source>no jitter</source>
        <translation>bez náhodného rozptylu</translation>
    </message>
    <message>
        <source>full jitter</source>
        <translation>s plným náhodným rozptylem</translation>
    </message>
    <message>
        <source>equal jitter</source>
        <translation>s polovičním náhodným rozptylem</translation>
    </message>
    <message>
        <source>decorrelated jitter</source>
        <translation>s dekorelovaným náhodným rozptylem</translation>
    </message>
    <message>
        <source>No answer came.</source>
        <translation>Žádná odpověď nepřišla.</translation>
    </message>
    <message>
        <source>The server refused the connection: nothing listens at its address (is it running?). Nothing was sent.</source>
        <translation>Server odmítl spojení: na jeho adrese nic nenaslouchá (běží?). Nic se neodeslalo.</translation>
    </message>
    <message>
        <source>The server&apos;s name could not be found. Nothing was sent.</source>
        <translation>Jméno serveru se nepodařilo najít. Nic se neodeslalo.</translation>
    </message>
    <message>
        <source>No connection within the time allowed. Nothing was sent.</source>
        <translation>Spojení se v povoleném čase nenavázalo. Nic se neodeslalo.</translation>
    </message>
    <message>
        <source>No answer within the time allowed: the server may have received the order.</source>
        <translation>V povoleném čase nepřišla odpověď: server objednávku možná dostal.</translation>
    </message>
    <message>
        <source>The server closed the connection without an answer: it may have received the order.</source>
        <translation>Server zavřel spojení bez odpovědi: objednávku možná dostal.</translation>
    </message>
    <message>
        <source>The connection broke before the answer arrived: the server may have received the order.</source>
        <translation>Spojení se přerušilo dřív, než přišla odpověď: server objednávku možná dostal.</translation>
    </message>
    <message>
        <source>The client stopped before the answer arrived: the server may have received the order.</source>
        <translation>Klient skončil dřív, než přišla odpověď: server objednávku možná dostal.</translation>
    </message>
    <message>
        <source>The attempt was cancelled before its answer arrived: the server may have received the order.</source>
        <translation>Pokus byl zrušen dřív, než přišla jeho odpověď: server objednávku možná dostal.</translation>
    </message>
    <message>
        <source>The secure connection failed.</source>
        <translation>Zabezpečené spojení selhalo.</translation>
    </message>
    <message>
        <source>No final answer came, only an interim one: the server may have received the order.</source>
        <translation>Nepřišla konečná odpověď, jen průběžná: server objednávku možná dostal.</translation>
    </message>
    <message>
        <source>The answer could not be read: the server may have placed the order.</source>
        <translation>Odpověď nešla přečíst: server objednávku možná vytvořil.</translation>
    </message>
    <message>
        <source>The connection failed.</source>
        <translation>Spojení selhalo.</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1: %2</translation>
    </message>
    <message>
        <source>HTTP %1 %2: %3</source>
        <translation>HTTP %1 %2: %3</translation>
    </message>
    <message>
        <source>backoff after attempt %1, %2</source>
        <translation>prodleva po pokusu %1, %2</translation>
    </message>
    <message>
        <source>the server said Retry-After %1 s, capped at %2 s</source>
        <translation>server řekl Retry-After %1 s, zkráceno na %2 s</translation>
    </message>
    <message>
        <source>the server said Retry-After %1 s</source>
        <translation>server řekl Retry-After %1 s</translation>
    </message>
    <message>
        <source>the retry window of %1 s is over; the key must not outlive the server&apos;s memory of it</source>
        <translation>okno pro opakování (%1 s) skončilo; klíč nesmí přežít to, jak dlouho si ho server pamatuje</translation>
    </message>
    <message>
        <source>the retry window is over (it ended %1); the key must not outlive the server&apos;s memory of it</source>
        <translation>okno pro opakování skončilo (v %1); klíč nesmí přežít to, jak dlouho si ho server pamatuje</translation>
    </message>
    <message>
        <source>a definitive failure: retrying cannot succeed</source>
        <translation>konečné selhání: opakování nemůže uspět</translation>
    </message>
    <message>
        <source>placed</source>
        <translation>vytvořeno</translation>
    </message>
    <message>
        <source>rejected: a definitive answer is never retried</source>
        <translation>odmítnuto: konečná odpověď se nikdy neopakuje</translation>
    </message>
    <message>
        <source>still in flight</source>
        <translation>stále na cestě</translation>
    </message>
    <message>
        <source>already placed under another key</source>
        <translation>už vytvořeno pod jiným klíčem</translation>
    </message>
</context>
<context>
    <name>ReplyInterpreter</name>
    <message>
        <source>HTTP %1 without an order of this cart in its body: what the server did is unknown</source>
        <translation>HTTP %1 bez objednávky tohoto košíku v těle odpovědi: co server udělal, není známo</translation>
    </message>
    <message>
        <source>HTTP %1 that is not the server&apos;s problem answer (a proxy&apos;s page?): what the server did is unknown</source>
        <translation>HTTP %1, které není odpovědí serveru s popisem problému (stránka proxy?): co server udělal, není známo</translation>
    </message>
</context>
<context>
    <name>StateFolderLock</name>
    <message>
        <source>Cannot create the state folder %1.</source>
        <translation>Nelze vytvořit stavovou složku %1.</translation>
    </message>
    <message>
        <source>Cannot write a lock file in the state folder %1.</source>
        <translation>Do stavové složky %1 nelze zapsat zámkový soubor.</translation>
    </message>
    <message>
        <source>Another OnceOrder window (process %1) is already using the state folder %2: two windows on one folder would share one outbox and one server database. Switch to that window, or start this one with a folder of its own, e.g. --state %2-B --api-key demo-key-B for client B.</source>
        <translation>Stavovou složku %2 už používá jiné okno OnceOrder (proces %1): dvě okna nad jednou složkou by sdílela jednu odchozí frontu a jednu databázi serveru. Přepněte se do toho okna, nebo toto spusťte s vlastní složkou, např. --state %2-B --api-key demo-key-B pro klienta B.</translation>
    </message>
</context>
<context>
    <name>onceorder::core::BundledServer</name>
    <message>
        <source>cannot start %1: %2</source>
        <translation>nelze spustit %1: %2</translation>
    </message>
    <message>
        <source>the server exited before it was ready:
%1</source>
        <translation>server skončil dřív, než byl připraven:
%1</translation>
    </message>
    <message>
        <source>unexpected first line from the server: %1</source>
        <translation>nečekaný první řádek od serveru: %1</translation>
    </message>
    <message>
        <source>the server died 10 times within a minute; it is not restarted again</source>
        <translation>server za minutu spadl desetkrát; znovu se už nespouští</translation>
    </message>
</context>
<context>
    <name>onceorder::core::CartReadBack</name>
    <message>
        <source>reconciled: the server has order %1, its payment not finished yet; the server completes it, reconcile again in a few seconds</source>
        <translation>ověřeno: server má objednávku %1, její platba ještě není dokončená; server ji dokončí, ověřte znovu za pár sekund</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1, cancelled because the payment failed</source>
        <translation>ověřeno: server má objednávku %1, zrušenou, protože platba selhala</translation>
    </message>
    <message>
        <source>reconciled: the server has order %1 for this cart</source>
        <translation>ověřeno: server má pro tento košík objednávku %1</translation>
    </message>
    <message>
        <source>reconciled, placed after all: the server has order %1 for this cart</source>
        <translation>ověřeno, nakonec přijata: server má pro tento košík objednávku %1</translation>
    </message>
    <message>
        <source>reconciled: the server has no order for this cart; nothing was placed</source>
        <translation>ověřeno: server pro tento košík žádnou objednávku nemá; nic nebylo objednáno</translation>
    </message>
    <message>
        <source>the server duplicated this cart: it holds orders %1 and %2 for cart %3, which this client submitted as one order; cancel one of them with the shop</source>
        <translation>server tento košík zdvojil: má objednávky %1 a %2 pro košík %3, který tento klient odeslal jako jednu objednávku; jednu z nich zrušte u obchodu</translation>
    </message>
    <message>
        <source>already placed: the server holds order %1 for this cart from an earlier submission whose answer never came; its payment is not finished yet, the server completes it</source>
        <translation>už objednáno: server má pro tento košík objednávku %1 z dřívějšího odeslání, jehož odpověď nikdy nepřišla; její platba ještě není dokončená, server ji dokončí</translation>
    </message>
    <message>
        <source>already placed: the server holds order %1 for this cart from an earlier submission whose answer never came; not sent again</source>
        <translation>už objednáno: server má pro tento košík objednávku %1 z dřívějšího odeslání, jehož odpověď nikdy nepřišla; znovu se neodesílá</translation>
    </message>
    <message>
        <source>cart %1 was already ordered as order %2 with other lines</source>
        <translation>košík %1 už byl objednán jako objednávka %2 s jinými položkami</translation>
    </message>
    <message>
        <source>already placed: the server holds order %1 for this cart, placed under an earlier key</source>
        <translation>už objednáno: server má pro tento košík objednávku %1, vytvořenou pod dřívějším klíčem</translation>
    </message>
    <message>
        <source>the order the server named (%1) is not an order of this cart</source>
        <translation>objednávka, kterou server jmenoval (%1), nepatří tomuto košíku</translation>
    </message>
    <message>
        <source>the order the server named (%1) could not be read back: %2</source>
        <translation>objednávku, kterou server uvedl (%1), se nepodařilo načíst: %2</translation>
    </message>
</context>
<context>
    <name>onceorder::core::CliProgress</name>
    <message>
        <source>no order (%1) after %2 s; attempts made: %3</source>
        <translation>žádná objednávka (%1) po %2 s; pokusů: %3</translation>
    </message>
    <message>
        <source>Stopped because: %1</source>
        <translation>Skončeno, protože: %1</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1: %2</translation>
    </message>
    <message>
        <source>no connection to %1 within the time allowed (nothing was sent)</source>
        <translation>spojení s %1 se nenavázalo v povoleném čase (nic nebylo odesláno)</translation>
    </message>
    <message>
        <source>no answer from %1 within the time allowed; the server may have received the order</source>
        <translation>%1 v povoleném čase neodpověděl; server mohl objednávku přijmout</translation>
    </message>
    <message>
        <source>connection refused: nothing accepts connections at %1 (is the server running?)</source>
        <translation>spojení odmítnuto: na %1 nic nepřijímá spojení (běží server?)</translation>
    </message>
    <message>
        <source>host not found: %1 does not resolve</source>
        <translation>počítač nenalezen: název %1 nelze přeložit</translation>
    </message>
    <message>
        <source>the connection to %1 closed without an answer; the server may have received the order</source>
        <translation>spojení s %1 se zavřelo bez odpovědi; server mohl objednávku přijmout</translation>
    </message>
    <message>
        <source>the secure connection to %1 failed (%2)</source>
        <translation>zabezpečené spojení s %1 selhalo (%2)</translation>
    </message>
    <message>
        <source> (cart %1)</source>
        <translation> (košík %1)</translation>
    </message>
    <message>
        <source>waiting to send the order%1 to %2</source>
        <translation>čekám na odeslání objednávky%1 na %2</translation>
    </message>
    <message>
        <source>waiting for an order%1 from %2: attempt %3 is on its way; the attempt before it failed: %4</source>
        <translation>čekám na objednávku%1 od %2: pokus %3 je na cestě; předchozí pokus selhal: %4</translation>
    </message>
    <message>
        <source>waiting for an order%1 from %2: attempt %3 failed: %4</source>
        <translation>čekám na objednávku%1 od %2: pokus %3 selhal: %4</translation>
    </message>
    <message>
        <source>attempt %1 in %2 s</source>
        <translation>pokus %1 za %2 s</translation>
    </message>
    <message>
        <source>gives up at %1</source>
        <translation>vzdá to v %1</translation>
    </message>
    <message>
        <source>waiting for the bundled onceorder-server to start (%1 s so far)</source>
        <translation>čekám na spuštění přibaleného onceorder-serveru (zatím %1 s)</translation>
    </message>
    <message>
        <source>the server duplicated cart %1: it holds two orders for it, %2 and %3, although this client sent it as one order with one key; cancel one of them with the shop</source>
        <translation>server košík %1 zdvojil: má pro něj dvě objednávky, %2 a %3, ačkoli je tento klient odeslal jako jednu objednávku s jedním klíčem; jednu z nich zrušte u obchodu</translation>
    </message>
    <message>
        <source>waiting for %1 to answer attempt %2%3 (sent %4 s ago; %5 s without a byte, or %6 s in all, ends the attempt)</source>
        <translation>čekám, až %1 odpoví na pokus %2%3 (odeslán před %4 s; pokus ukončí %5 s bez jediného bajtu nebo %6 s celkem)</translation>
    </message>
    <message>
        <source>attempt %1%2 was answered &quot;cart already ordered&quot;: asking %3 for the order it named (bounded by the attempt and the retry window)</source>
        <translation>na pokus %1%2 přišla odpověď „košík již objednán“: ptám se %3 na objednávku, kterou jmenovala (v mezích pokusu a okna opakování)</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ClientSession</name>
    <message>
        <source>the network conditioner cannot listen on loopback</source>
        <translation>síťový simulátor nemůže naslouchat na loopbacku</translation>
    </message>
</context>
<context>
    <name>onceorder::core::DebugControls</name>
    <message>
        <source>Disarm the server&apos;s fault</source>
        <translation>Zrušit poruchu serveru</translation>
    </message>
    <message>
        <source>Reset the server</source>
        <translation>Resetovat server</translation>
    </message>
    <message>
        <source>Kill the server</source>
        <translation>Zabít server</translation>
    </message>
    <message>
        <source>the server is external; only the bundled one can be killed</source>
        <translation>server je externí; zabít lze jen přibalený server</translation>
    </message>
    <message>
        <source>Run the completer</source>
        <translation>Spustit dokončovač</translation>
    </message>
    <message numerus="yes">
        <source>the completer finished %n abandoned checkout(s)</source>
        <translation>
            <numerusform>dokončovač dokončil %n opuštěný nákup</numerusform>
            <numerusform>dokončovač dokončil %n opuštěné nákupy</numerusform>
            <numerusform>dokončovač dokončil %n opuštěných nákupů</numerusform>
        </translation>
    </message>
    <message>
        <source>Arm “%1” × %2</source>
        <translation>Nastavit „%1“ × %2</translation>
    </message>
    <message>
        <source>“%1” on</source>
        <translation>„%1“ zapnuto</translation>
    </message>
    <message>
        <source>“%1” off</source>
        <translation>„%1“ vypnuto</translation>
    </message>
</context>
<context>
    <name>onceorder::core::HttpExchange</name>
    <message>
        <source>no data for %1 ms (transfer timeout)</source>
        <translation>žádná data po %1 ms (vypršel časový limit přenosu)</translation>
    </message>
    <message>
        <source>aborted</source>
        <translation>přerušeno</translation>
    </message>
    <message>
        <source>libcurl could not be initialised</source>
        <translation>knihovnu libcurl se nepodařilo inicializovat</translation>
    </message>
    <message>
        <source>the answer is larger than %1 bytes</source>
        <translation>odpověď je větší než %1 bajtů</translation>
    </message>
    <message>
        <source>the answer&apos;s Content-Length cannot be read</source>
        <translation>hlavičku Content-Length odpovědi nelze přečíst</translation>
    </message>
    <message>
        <source>no final answer: the exchange ended after an interim HTTP %1</source>
        <translation>žádná konečná odpověď: výměna skončila po průběžné odpovědi HTTP %1</translation>
    </message>
</context>
<context>
    <name>onceorder::core::NetworkConditioner</name>
    <message>
        <source>refused %1: offline</source>
        <translation>odmítnuto %1: offline</translation>
    </message>
    <message>
        <source>dropped the request %1 before it reached the server</source>
        <translation>požadavek %1 zahozen dřív, než dorazil na server</translation>
    </message>
    <message>
        <source>blackholed %1: no answer will come</source>
        <translation>%1 pohlcen černou dírou: odpověď nepřijde</translation>
    </message>
    <message>
        <source>delayed %1 by %2 ms each way</source>
        <translation>%1 zpožděn o %2 ms v každém směru</translation>
    </message>
    <message>
        <source>forwarded %1</source>
        <translation>%1 předán</translation>
    </message>
    <message>
        <source>flaky: dropped the response to %1</source>
        <translation>nespolehlivá síť: odpověď na %1 zahozena</translation>
    </message>
    <message>
        <source>dropped the response to %1 (the server has processed it)</source>
        <translation>odpověď na %1 zahozena (server ho už zpracoval)</translation>
    </message>
    <message>
        <source>the server closed the connection without answering %1</source>
        <translation>server zavřel spojení, aniž odpověděl na %1</translation>
    </message>
    <message>
        <source>could not reach the server at %1 for %2: %3</source>
        <translation>server na %1 nebyl pro %2 dostupný: %3</translation>
    </message>
    <message numerus="yes">
        <source>offline: cut %n open connection(s)</source>
        <translation>
            <numerusform>offline: přerušeno %n otevřené spojení</numerusform>
            <numerusform>offline: přerušena %n otevřená spojení</numerusform>
            <numerusform>offline: přerušeno %n otevřených spojení</numerusform>
        </translation>
    </message>
    <message>
        <source>cut the response to %1: it is larger than the client accepts</source>
        <translation>odpověď na %1 přerušena: je větší, než klient přijme</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioContext</name>
    <message>
        <source>cannot create a temporary folder: %1</source>
        <translation>nelze vytvořit dočasnou složku: %1</translation>
    </message>
    <message>
        <source>the network conditioner cannot listen on loopback</source>
        <translation>síťový simulátor nemůže naslouchat na loopbacku</translation>
    </message>
    <message>
        <source>GET /_debug/state answered %1</source>
        <translation>GET /_debug/state odpověděl %1</translation>
    </message>
    <message>
        <source>POST /_debug/%1 answered %2</source>
        <translation>POST /_debug/%1 odpověděl %2</translation>
    </message>
    <message>
        <source>unexpected first line from the extra server: %1</source>
        <translation>nečekaný první řádek od dalšího serveru: %1</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>nelze spustit %1: %2</translation>
    </message>
    <message>
        <source>no response: %1</source>
        <translation>žádná odpověď: %1</translation>
    </message>
    <message>
        <source>connection closed</source>
        <translation>spojení zavřeno</translation>
    </message>
    <message>
        <source> order %1</source>
        <translation> objednávka %1</translation>
    </message>
    <message>
        <source> (replayed)</source>
        <translation> (zopakováno)</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioResult</name>
    <message>
        <source>PASS</source>
        <translation>PROŠLO</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>SELHALO</translation>
    </message>
    <message>
        <source>step</source>
        <translation>krok</translation>
    </message>
    <message>
        <source>response</source>
        <translation>odpověď</translation>
    </message>
    <message>
        <source>orders</source>
        <translation>objednávky</translation>
    </message>
    <message>
        <source>expected</source>
        <translation>očekáváno</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>verdikt</translation>
    </message>
    <message>
        <source>Could not finish:</source>
        <translation>Nepodařilo se dokončit:</translation>
    </message>
    <message>
        <source>**%1** in %2 s</source>
        <translation>**%1** za %2 s</translation>
    </message>
    <message>
        <source>OnceOrder teaching scenarios</source>
        <translation>Výukové scénáře OnceOrder</translation>
    </message>
    <message>
        <source>Summary: %1/%2 scenarios passed in %3 s</source>
        <translation>Shrnutí: prošlo %1/%2 scénářů za %3 s</translation>
    </message>
    <message>
        <source>; failed: %1</source>
        <translation>; selhaly: %1</translation>
    </message>
    <message>
        <source>onceorder: --%1 does not apply to --scenario: every scenario runs on a fresh temporary state with its own bundled server and demo clients.</source>
        <translation>onceorder: --%1 se na --scenario nevztahuje: každý scénář běží na čistém dočasném stavu s vlastním přibaleným serverem a ukázkovými klienty.</translation>
    </message>
    <message>
        <source>onceorder: unknown scenario &quot;%1&quot;; known: all, list, %2</source>
        <translation>onceorder: neznámý scénář „%1“; známé: all, list, %2</translation>
    </message>
    <message>
        <source>onceorder: --scenario needs a name; known: all, list, %1</source>
        <translation>onceorder: --scenario potřebuje název; známé: all, list, %1</translation>
    </message>
    <message>
        <source>onceorder: cannot create %1</source>
        <translation>onceorder: nelze vytvořit %1</translation>
    </message>
    <message>
        <source>onceorder: %1 table(s) could not be written to %2</source>
        <translation>onceorder: %1 tabulek se nepodařilo zapsat do %2</translation>
    </message>
    <message>
        <source>onceorder: no PostgreSQL here (ONCEORDER_POSTGRES_URI or PGHOST): the PostgreSQL scenarios are left out</source>
        <translation>onceorder: PostgreSQL tu není (ONCEORDER_POSTGRES_URI ani PGHOST): scénáře pro PostgreSQL se vynechávají</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>nelze zapsat %1</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioRunner</name>
    <message>
        <source>timed out after %1 ms in step %2 of %3</source>
        <translation>vypršel čas po %1 ms v kroku %2 z %3</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ScenarioText</name>
    <message>
        <source>The article&apos;s table</source>
        <translation>Tabulka z článku</translation>
    </message>
    <message>
        <source>The server&apos;s rules in six requests. The first request with a key places an order and stores the answer; the same key with the same data (even with the fields in another order) gets the stored answer back, marked Idempotent-Replayed; the same key with other data is refused with 422 and nothing changes; another client&apos;s K1 is its own key (keys are scoped per client); a POST without a key is refused before anything is stored.</source>
        <translation>Pravidla serveru v šesti požadavcích. První požadavek s klíčem vytvoří objednávku a uloží odpověď; stejný klíč se stejnými daty (i s poli v jiném pořadí) dostane uloženou odpověď zpět, označenou Idempotent-Replayed; stejný klíč s jinými daty je odmítnut kódem 422 a nic se nezmění; K1 jiného klienta je jeho vlastní klíč (klíče patří vždy jednomu klientovi); POST bez klíče je odmítnut dřív, než se cokoli uloží.</translation>
    </message>
    <message>
        <source>A: POST /orders, K1, kniha × 1</source>
        <translation>A: POST /orders, K1, kniha × 1</translation>
    </message>
    <message>
        <source>201, a new order</source>
        <translation>201, nová objednávka</translation>
    </message>
    <message>
        <source>A: the same again, K1</source>
        <translation>A: totéž znovu, K1</translation>
    </message>
    <message>
        <source>201 order 1 replayed, no new order</source>
        <translation>201 objednávka 1 zopakována, žádná nová</translation>
    </message>
    <message>
        <source>A: K1, same data, fields in another order</source>
        <translation>A: K1, stejná data, pole v jiném pořadí</translation>
    </message>
    <message>
        <source>201 order 1 replayed (same fingerprint)</source>
        <translation>201 objednávka 1 zopakována (stejný otisk)</translation>
    </message>
    <message>
        <source>A: K1, kniha × 2</source>
        <translation>A: K1, kniha × 2</translation>
    </message>
    <message>
        <source>422 idempotency-key-reused, nothing changes</source>
        <translation>422 idempotency-key-reused, nic se nezmění</translation>
    </message>
    <message>
        <source>B: POST /orders, K1, kniha × 1</source>
        <translation>B: POST /orders, K1, kniha × 1</translation>
    </message>
    <message>
        <source>201, B&apos;s own order</source>
        <translation>201, vlastní objednávka B</translation>
    </message>
    <message>
        <source>A: POST /orders without Idempotency-Key</source>
        <translation>A: POST /orders bez Idempotency-Key</translation>
    </message>
    <message>
        <source>400 missing-idempotency-key, nothing stored</source>
        <translation>400 missing-idempotency-key, nic se neuloží</translation>
    </message>
    <message>
        <source>Double click</source>
        <translation>Dvojklik</translation>
    </message>
    <message>
        <source>An impatient user clicks twice: two requests with one key reach the server at the same moment. The key row is the transaction&apos;s first write and duplicates queue behind the writer lock, so the second request waits, then finds the stored answer: one order, and both clicks see the same order id.</source>
        <translation>Netrpělivý uživatel klikne dvakrát: dva požadavky s jedním klíčem dorazí na server ve stejný okamžik. Řádek klíče je první zápis transakce a duplicity čekají ve frontě za zámkem zapisovatele, takže druhý požadavek počká a pak najde uloženou odpověď: jedna objednávka a obě kliknutí vidí stejné číslo objednávky.</translation>
    </message>
    <message>
        <source>A: 2 × POST /orders, one key, at once</source>
        <translation>A: 2 × POST /orders, jeden klíč, naráz</translation>
    </message>
    <message>
        <source>201 and 201 replayed, one order id</source>
        <translation>201 a 201 zopakováno, jedno číslo objednávky</translation>
    </message>
    <message>
        <source>Lost response</source>
        <translation>Ztracená odpověď</translation>
    </message>
    <message>
        <source>The server commits the order but its answer is lost on the way back (the conditioner drops it). The client cannot tell this from a request that never arrived, so it retries with the same key: the server recognises the key and replays the stored answer. One order, and the client learns its id.</source>
        <translation>Server objednávku potvrdí (commit), ale jeho odpověď se cestou zpět ztratí (simulátor sítě ji zahodí). Klient to nerozliší od požadavku, který nikdy nedorazil, a tak to zkusí znovu se stejným klíčem: server klíč pozná a zopakuje uloženou odpověď. Jedna objednávka a klient se dozví její číslo.</translation>
    </message>
    <message>
        <source>the next answer is dropped</source>
        <translation>příští odpověď se zahodí</translation>
    </message>
    <message>
        <source>the client&apos;s submission</source>
        <translation>odeslání klientem</translation>
    </message>
    <message>
        <source>placed by a replayed retry, one order</source>
        <translation>vytvořeno, opakování dostalo uloženou odpověď, jedna objednávka</translation>
    </message>
    <message>
        <source>Client crash after sending</source>
        <translation>Pád klienta po odeslání</translation>
    </message>
    <message>
        <source>onceorder-cli stores the key and the exact request bytes before sending, then is killed (SIGKILL) right after the request went out. Whether the order exists is unknown to it. On restart, `onceorder-cli resume` sends the stored request again with the stored key: if the server had placed it, the answer is a replay; either way there is exactly one order.</source>
        <translation>onceorder-cli si před odesláním uloží klíč i přesné bajty požadavku a hned po odeslání je zabit (SIGKILL). Jestli objednávka existuje, neví. Po novém startu pošle `onceorder-cli resume` uložený požadavek znovu s uloženým klíčem: pokud ho server už vyřídil, odpověď je zopakovaná; tak či tak je objednávka právě jedna.</translation>
    </message>
    <message>
        <source>onceorder-cli submit, killed after send</source>
        <translation>onceorder-cli submit, zabit po odeslání</translation>
    </message>
    <message>
        <source>killed, no answer read</source>
        <translation>zabit, odpověď nepřečtena</translation>
    </message>
    <message>
        <source>exited normally</source>
        <translation>skončil normálně</translation>
    </message>
    <message>
        <source>killed; 0 or 1 orders: the client cannot know</source>
        <translation>zabit; 0 nebo 1 objednávka: klient to nemůže vědět</translation>
    </message>
    <message>
        <source>onceorder-cli resume, the stored key</source>
        <translation>onceorder-cli resume, uložený klíč</translation>
    </message>
    <message>
        <source>placed (replayed if the first one got through), one order</source>
        <translation>vytvořeno (zopakováno, pokud první prošel), jedna objednávka</translation>
    </message>
    <message>
        <source>Server crash before and after commit</source>
        <translation>Pád serveru před commitem a po něm</translation>
    </message>
    <message>
        <source>The server process dies in the middle of a request. Before the commit, SQLite rolls the whole transaction back: no order, no key; the client&apos;s retry (after the server has restarted) places it as new. After the commit, the order and its stored answer survive: the retry is a replay. Either way the cart becomes exactly one order.</source>
        <translation>Proces serveru zemře uprostřed požadavku. Před commitem SQLite vrátí celou transakci: žádná objednávka, žádný klíč; opakování klienta (po restartu serveru) ji vytvoří jako novou. Po commitu objednávka i uložená odpověď přežijí: opakování dostane uloženou odpověď. Tak či tak je z košíku právě jedna objednávka.</translation>
    </message>
    <message>
        <source>the server will die before its next commit</source>
        <translation>server zemře před příštím commitem</translation>
    </message>
    <message>
        <source>cart 1 submitted</source>
        <translation>košík 1 odeslán</translation>
    </message>
    <message>
        <source>placed as new (not replayed), one order</source>
        <translation>vytvořeno jako nová (ne zopakováno), jedna objednávka</translation>
    </message>
    <message>
        <source>the server will die after its next commit</source>
        <translation>server zemře po příštím commitu</translation>
    </message>
    <message>
        <source>cart 2 submitted</source>
        <translation>košík 2 odeslán</translation>
    </message>
    <message>
        <source>placed by a replay, two orders in all</source>
        <translation>vytvořeno zopakováním, celkem dvě objednávky</translation>
    </message>
    <message>
        <source>%1 paid of %2 orders, gateway charges %3, payments %4, webhook events [%5]</source>
        <translation>zaplaceno %1 z %2 objednávek, stržení v bráně %3, platby %4, události webhooků [%5]</translation>
    </message>
    <message>
        <source>A payment gateway in the middle</source>
        <translation>Platební brána uprostřed</translation>
    </message>
    <message>
        <source>One transaction cannot span a call to a payment gateway, so POST /checkout runs as atomic phases, each committing a recovery point. While the first request waits for a slow gateway, a retry with the same key is told 409 request-in-progress instead of paying twice. When the server dies after the gateway charged but before our phase committed, the retry resumes from the recovery point and the gateway, asked again under the same key, returns the charge it already made: one order, one charge.</source>
        <translation>Jedna transakce nemůže obejmout volání platební brány, proto POST /checkout běží v atomických fázích a každá potvrdí svůj bod obnovy. Zatímco první požadavek čeká na pomalou bránu, opakování se stejným klíčem dostane 409 request-in-progress místo druhé platby. Když server zemře poté, co brána strhla platbu, ale před potvrzením naší fáze, opakování pokračuje od bodu obnovy a brána, dotázaná znovu pod stejným klíčem, vrátí platbu, kterou už provedla: jedna objednávka, jedno stržení.</translation>
    </message>
    <message>
        <source>the gateway answers after 1 s</source>
        <translation>brána odpoví po 1 s</translation>
    </message>
    <message>
        <source>A: the same checkout again, 0.3 s later</source>
        <translation>A: stejná pokladna znovu, o 0,3 s později</translation>
    </message>
    <message>
        <source>409 request-in-progress with Retry-After</source>
        <translation>409 request-in-progress s Retry-After</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-1, kniha × 1 (slow gateway)</source>
        <translation>A: POST /checkout, pay-1, kniha × 1 (pomalá brána)</translation>
    </message>
    <message>
        <source>201 paid; one order, one charge</source>
        <translation>201 zaplaceno; jedna objednávka, jedno stržení</translation>
    </message>
    <message>
        <source>the server dies after the next charge, before phase 2 commits</source>
        <translation>server zemře po příštím stržení, před potvrzením fáze 2</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-2, hrnek × 1</source>
        <translation>A: POST /checkout, pay-2, hrnek × 1</translation>
    </message>
    <message>
        <source>no answer: the server died between the phases</source>
        <translation>žádná odpověď: server zemřel mezi fázemi</translation>
    </message>
    <message>
        <source>A: retry pay-2 after the restart</source>
        <translation>A: opakování pay-2 po restartu</translation>
    </message>
    <message>
        <source>201 paid, resumed at the recovery point; 2 orders, 2 charges in all</source>
        <translation>201 zaplaceno, pokračováno od bodu obnovy; celkem 2 objednávky, 2 stržení</translation>
    </message>
    <message>
        <source>A webhook delivered twice; two events for one change</source>
        <translation>Webhook doručený dvakrát; dvě události pro jednu změnu</translation>
    </message>
    <message>
        <source>Gateways deliver webhooks at least once: the same event may come twice, and one change may be reported by two events with different ids. The server records each event id first (a repeated id is a duplicate and does nothing) and makes the effect idempotent on the data (one payment per charge, pending → paid only once), so the order is paid once either way.</source>
        <translation>Brány doručují webhooky alespoň jednou: stejná událost může přijít dvakrát a jednu změnu mohou ohlásit dvě události s různými id. Server si nejdřív zapíše id události (opakované id je duplicita a nic neudělá) a účinek udělá idempotentním na datech (jedna platba na jedno stržení, pending → paid jen jednou), takže objednávka je zaplacena jednou tak i tak.</translation>
    </message>
    <message>
        <source>the gateway will deliver the next event twice, same id</source>
        <translation>brána doručí příští událost dvakrát, se stejným id</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-w1 (event delivered twice)</source>
        <translation>A: POST /checkout, pay-w1 (událost doručena dvakrát)</translation>
    </message>
    <message>
        <source>201 paid; one event row, one payment</source>
        <translation>201 zaplaceno; jeden řádek události, jedna platba</translation>
    </message>
    <message>
        <source>the gateway will send two events with different ids for the next charge</source>
        <translation>brána pošle k příštímu stržení dvě události s různými id</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-w2 (twin events)</source>
        <translation>A: POST /checkout, pay-w2 (dvojčata událostí)</translation>
    </message>
    <message>
        <source>201 paid; the twin changes nothing: 2 orders, 2 payments</source>
        <translation>201 zaplaceno; dvojče nic nezmění: 2 objednávky, 2 platby</translation>
    </message>
    <message>
        <source>ms after the cut</source>
        <translation>ms po přerušení</translation>
    </message>
    <message>
        <source>what a recovering server can take (assumed: %1 per 100 ms)</source>
        <translation>co zotavující se server zvládne (předpoklad: %1 za 100 ms)</translation>
    </message>
    <message>
        <source>%1: retries per 100 ms after the cut</source>
        <translation>%1: opakování za 100 ms po přerušení</translation>
    </message>
    <message>
        <source>%1: %2 requests cut at once, %3 s outage</source>
        <translation>%1: %2 požadavků přerušeno naráz, výpadek %3 s</translation>
    </message>
    <message>
        <source>%1 placed, %2 retries, at most %3 within %4 ms</source>
        <translation>vytvořeno %1, opakování %2, nejvýš %3 během %4 ms</translation>
    </message>
    <message>
        <source>A new key for every retry</source>
        <translation>Nový klíč pro každé opakování</translation>
    </message>
    <message>
        <source>no UNIQUE(client_id, cart_id)</source>
        <translation>bez UNIQUE(client_id, cart_id)</translation>
    </message>
    <message>
        <source>the first answer is dropped</source>
        <translation>první odpověď se zahodí</translation>
    </message>
    <message>
        <source>the mistake: cart submitted, new key per attempt</source>
        <translation>chyba: košík odeslán, nový klíč pro každý pokus</translation>
    </message>
    <message>
        <source>placed twice: two orders</source>
        <translation>vytvořeno dvakrát: dvě objednávky</translation>
    </message>
    <message>
        <source>with the business key: cart submitted, new key per attempt</source>
        <translation>s obchodním klíčem: košík odeslán, nový klíč pro každý pokus</translation>
    </message>
    <message>
        <source>503 with Retry-After; offline, then back</source>
        <translation>503 s Retry-After; offline a zase zpět</translation>
    </message>
    <message>
        <source>An overloaded server answers 503 with Retry-After: 1; the client waits at least that long instead of its own short backoff, then places the order. When the network is gone (the conditioner stops listening, connections are refused), the client keeps its key and backs off; once the network is back the same submission completes. One order each.</source>
        <translation>Přetížený server odpoví 503 s Retry-After: 1; klient čeká aspoň tak dlouho místo svého krátkého odstupu a pak objednávku vytvoří. Když síť zmizí (simulátor přestane naslouchat, spojení jsou odmítnuta), klient si klíč ponechá a čeká stále déle; jakmile je síť zpět, stejné odeslání se dokončí. Pokaždé jedna objednávka.</translation>
    </message>
    <message>
        <source>the next request gets 503 with Retry-After: 1</source>
        <translation>příští požadavek dostane 503 s Retry-After: 1</translation>
    </message>
    <message>
        <source>placed; the retry came ≥ 1 s after the 503</source>
        <translation>vytvořeno; opakování přišlo ≥ 1 s po 503</translation>
    </message>
    <message>
        <source>connections are refused</source>
        <translation>spojení jsou odmítána</translation>
    </message>
    <message>
        <source>cart 2 submitted while offline</source>
        <translation>košík 2 odeslán v režimu offline</translation>
    </message>
    <message>
        <source>placed once the network is back, two orders in all</source>
        <translation>vytvořeno, jakmile je síť zpět, celkem dvě objednávky</translation>
    </message>
    <message>
        <source>network: back</source>
        <translation>síť: zpět</translation>
    </message>
    <message>
        <source>after %1 refused attempts</source>
        <translation>po %1 odmítnutých pokusech</translation>
    </message>
    <message>
        <source>Thundering herd: retries with and without jitter</source>
        <translation>Thundering herd: opakování s rozptylem a bez něj</translation>
    </message>
    <message>
        <source>After an outage every pending cart retries. Without jitter all clients compute the same backoff (800 ms, then 1.6 s, …) and hit the recovering server in lockstep: every retry of every cart in the same moment. With full jitter each waits a random time up to the backoff, so the same retries are spread out and the peak is a fraction. Either way each cart becomes one order.</source>
        <translation>Po výpadku to zkusí znovu každý čekající košík. Bez rozptylu (jitter) spočítají všichni klienti stejný odstup (800 ms, pak 1,6 s, …) a udeří na zotavující se server v jednom šiku: každé opakování každého košíku ve stejný okamžik. S plným rozptylem čeká každý náhodnou dobu až do délky odstupu, takže se tatáž opakování rozprostřou a špička je zlomková. Tak či tak je z každého košíku jedna objednávka.</translation>
    </message>
    <message>
        <source>no jitter</source>
        <translation>bez rozptylu</translation>
    </message>
    <message>
        <source>lockstep: at least %1 of the %2 first retries within %3 ms</source>
        <translation>v jednom šiku: aspoň %1 z %2 prvních opakování během %3 ms</translation>
    </message>
    <message>
        <source>%1 (attempts: %2)</source>
        <translation>%1 (pokusů: %2)</translation>
    </message>
    <message>
        <source>placed: order %1, a replay of the first send (attempts: %2)</source>
        <translation>vytvořeno: objednávka %1, opakovaná odpověď na první odeslání (pokusů: %2)</translation>
    </message>
    <message>
        <source>placed: order %1 (attempts: %2)</source>
        <translation>vytvořeno: objednávka %1 (pokusů: %2)</translation>
    </message>
    <message>
        <source>full jitter</source>
        <translation>plný rozptyl</translation>
    </message>
    <message>
        <source>spread out: a lower peak than without jitter</source>
        <translation>rozprostřeno: nižší špička než bez rozptylu</translation>
    </message>
    <message>
        <source>in flight</source>
        <comment>attempt outcome</comment>
        <translation>na cestě</translation>
    </message>
    <message>
        <source>placed</source>
        <comment>attempt outcome</comment>
        <translation>vytvořeno</translation>
    </message>
    <message>
        <source>rejected</source>
        <comment>attempt outcome</comment>
        <translation>odmítnuto</translation>
    </message>
    <message>
        <source>retry later</source>
        <comment>attempt outcome</comment>
        <translation>zkusit později</translation>
    </message>
    <message>
        <source>not sent</source>
        <comment>attempt outcome</comment>
        <translation>neodesláno</translation>
    </message>
    <message>
        <source>maybe sent</source>
        <comment>attempt outcome</comment>
        <translation>možná odesláno</translation>
    </message>
    <message>
        <source>pending</source>
        <comment>submission state</comment>
        <translation>čeká</translation>
    </message>
    <message>
        <source>placed</source>
        <comment>submission state</comment>
        <translation>vytvořeno</translation>
    </message>
    <message>
        <source>rejected</source>
        <comment>submission state</comment>
        <translation>odmítnuto</translation>
    </message>
    <message>
        <source>gave up</source>
        <comment>submission state</comment>
        <translation>vzdáno</translation>
    </message>
    <message>
        <source>abandoned</source>
        <comment>submission state</comment>
        <translation>opuštěno</translation>
    </message>
    <message>
        <source> (replayed)</source>
        <translation> (zopakováno)</translation>
    </message>
    <message>
        <source>; next in %1 ms</source>
        <translation>; další za %1 ms</translation>
    </message>
    <message>
        <source>%1 after %2 attempt(s)</source>
        <translation>%1 po %2 pokusech</translation>
    </message>
    <message>
        <source>, order %1</source>
        <translation>, objednávka %1</translation>
    </message>
    <message>
        <source>, replayed</source>
        <translation>, zopakováno</translation>
    </message>
    <message>
        <source>attempt %1, key …%2</source>
        <translation>pokus %1, klíč …%2</translation>
    </message>
    <message>
        <source>attempts %1–%2</source>
        <translation>pokusy %1–%2</translation>
    </message>
    <message>
        <source>the same, %1 more time(s)</source>
        <translation>totéž, ještě %1×</translation>
    </message>
    <message>
        <source>fresh server: no orders, no keys, modes off</source>
        <translation>čistý server: žádné objednávky, žádné klíče, režimy vypnuté</translation>
    </message>
    <message>
        <source>network: %1</source>
        <translation>síť: %1</translation>
    </message>
    <message>
        <source>network: pass</source>
        <translation>síť: propouští</translation>
    </message>
    <message>
        <source>the conditioner relays again</source>
        <translation>simulátor sítě zase přeposílá</translation>
    </message>
    <message>
        <source>Transient error: stored versus rolled back</source>
        <translation>Přechodná chyba: uložená, nebo vrácená</translation>
    </message>
    <message>
        <source>A database hiccup answers 503. The mistake (store_transient mode) stores that 503 as the key&apos;s answer: every retry with the key gets the same 503 replayed, the client stays stuck until its window ends (or the key expires) and the order is never placed. The fix rolls the whole transaction back and stores nothing, so the retry with the same key succeeds.</source>
        <translation>Zaváhání databáze odpoví 503. Chyba (režim store_transient) uloží tuto 503 jako odpověď klíče: každé opakování s tím klíčem dostane stejnou 503 znovu, klient uvízne, dokud neskončí jeho okno (nebo nevyprší klíč), a objednávka nikdy nevznikne. Oprava vrátí celou transakci a neuloží nic, takže opakování se stejným klíčem uspěje.</translation>
    </message>
    <message>
        <source>mistake on: a 503 is stored as the key&apos;s answer</source>
        <translation>chyba zapnuta: 503 se uloží jako odpověď klíče</translation>
    </message>
    <message>
        <source>the next transaction fails before commit</source>
        <translation>příští transakce selže před commitem</translation>
    </message>
    <message>
        <source>the mistake: cart 1 submitted</source>
        <translation>chyba: košík 1 odeslán</translation>
    </message>
    <message>
        <source>gave up on replayed 503s, no order</source>
        <translation>vzdáno po zopakovaných 503, žádná objednávka</translation>
    </message>
    <message>
        <source>the fix: cart 1 submitted</source>
        <translation>oprava: košík 1 odeslán</translation>
    </message>
    <message>
        <source>placed by the retry, one order</source>
        <translation>vytvořeno opakováním, jedna objednávka</translation>
    </message>
    <message>
        <source>A: K1, kniha × 1</source>
        <translation>A: K1, kniha × 1</translation>
    </message>
    <message>
        <source>201, A&apos;s order</source>
        <translation>201, objednávka A</translation>
    </message>
    <message>
        <source>Keys not scoped per client</source>
        <translation>Klíče bez rozlišení klienta</translation>
    </message>
    <message>
        <source>Two clients happen to use the same key. The mistake (unscoped_keys mode) keeps one namespace of keys for everybody: B&apos;s request is taken for a retry of A&apos;s and B receives A&apos;s order, a data leak and a lost order. The fix makes the key&apos;s primary key (client_id, idem_key): B gets its own order.</source>
        <translation>Dva klienti náhodou použijí stejný klíč. Chyba (režim unscoped_keys) má jeden prostor klíčů pro všechny: požadavek B se považuje za opakování požadavku A a B dostane objednávku A — únik dat a ztracená objednávka. Oprava dá klíči primární klíč (client_id, idem_key): B dostane vlastní objednávku.</translation>
    </message>
    <message>
        <source>mistake on: one key space for all clients</source>
        <translation>chyba zapnuta: jeden prostor klíčů pro všechny klienty</translation>
    </message>
    <message>
        <source>the mistake: B: K1, kniha × 1</source>
        <translation>chyba: B: K1, kniha × 1</translation>
    </message>
    <message>
        <source>A&apos;s order replayed to B, no order for B</source>
        <translation>B dostane zopakovanou objednávku A, B žádnou nemá</translation>
    </message>
    <message>
        <source>the fix: B: K1, kniha × 1</source>
        <translation>oprava: B: K1, kniha × 1</translation>
    </message>
    <message>
        <source>Look-then-insert versus key first</source>
        <translation>Nejdřív ověřit, pak vložit — nebo nejdřív klíč</translation>
    </message>
    <message>
        <source>The mistake (check_then_insert mode) first looks whether the key exists and inserts it in a second step. Copies of one request arriving together all look before any has inserted, all see nothing, and all place an order (a delay fault widens the gap, as a slow disk would). The fix makes the key row the transaction&apos;s first write under the writer lock: one order, the others are replays.</source>
        <translation>Chyba (režim check_then_insert) se nejdřív podívá, jestli klíč existuje, a vloží ho až v druhém kroku. Kopie jednoho požadavku, které přijdou spolu, se všechny podívají dřív, než kterákoli vloží, všechny nic nenajdou a všechny vytvoří objednávku (porucha se zpožděním mezeru rozšíří, jako by to udělal pomalý disk). Oprava udělá z řádku klíče první zápis transakce pod zámkem zapisovatele: jedna objednávka, ostatní dostanou uloženou odpověď.</translation>
    </message>
    <message>
        <source>mistake on: look for the key, then insert</source>
        <translation>chyba zapnuta: najít klíč, pak vložit</translation>
    </message>
    <message>
        <source>300 ms between the look and the insert</source>
        <translation>300 ms mezi pohledem a vložením</translation>
    </message>
    <message>
        <source>the mistake: 4 × A, one key, at once</source>
        <translation>chyba: 4 × A, jeden klíč, naráz</translation>
    </message>
    <message>
        <source>more than one order for one key</source>
        <translation>víc než jedna objednávka na jeden klíč</translation>
    </message>
    <message>
        <source>300 ms inside the transaction</source>
        <translation>300 ms uvnitř transakce</translation>
    </message>
    <message>
        <source>the fix: 4 × A, one key, at once</source>
        <translation>oprava: 4 × A, jeden klíč, naráz</translation>
    </message>
    <message>
        <source>exactly one order</source>
        <translation>právě jedna objednávka</translation>
    </message>
    <message>
        <source>A key TTL shorter than the retry window</source>
        <translation>Platnost klíče kratší než okno opakování</translation>
    </message>
    <message>
        <source>The server forgets a key after its TTL; an expired key is as good as new. If a client may still retry after that (its retry window is longer than the TTL), a late retry places a second order. Here a second server runs with --key-ttl 1 and the retry comes 1.5 s later; the bundled server (TTL 24 h, far beyond any client window) replays the same late retry.</source>
        <translation>Server klíč po uplynutí jeho platnosti (TTL) zapomene; prošlý klíč je jako nový. Když klient může opakovat i potom (jeho okno opakování je delší než TTL), pozdní opakování vytvoří druhou objednávku. Tady běží druhý server s --key-ttl 1 a opakování přijde o 1,5 s později; přibalený server (TTL 24 h, daleko za oknem kteréhokoli klienta) stejné pozdní opakování zodpoví uloženou odpovědí.</translation>
    </message>
    <message>
        <source>second server, --key-ttl 1</source>
        <translation>druhý server, --key-ttl 1</translation>
    </message>
    <message>
        <source>TTL 1 s: A: K-ttl</source>
        <translation>TTL 1 s: A: K-ttl</translation>
    </message>
    <message>
        <source>TTL 24 h: A: K-ttl</source>
        <translation>TTL 24 h: A: K-ttl</translation>
    </message>
    <message>
        <source>wait 1.5 s</source>
        <translation>čekat 1,5 s</translation>
    </message>
    <message>
        <source>the client is still inside its retry window</source>
        <translation>klient je pořád ve svém okně opakování</translation>
    </message>
    <message>
        <source>the mistake: TTL 1 s: the late retry, K-ttl</source>
        <translation>chyba: TTL 1 s: pozdní opakování, K-ttl</translation>
    </message>
    <message>
        <source>201 not replayed: a second order</source>
        <translation>201 nezopakováno: druhá objednávka</translation>
    </message>
    <message>
        <source>the fix: TTL 24 h: the late retry, K-ttl</source>
        <translation>oprava: TTL 24 h: pozdní opakování, K-ttl</translation>
    </message>
    <message>
        <source>201 replayed, one order</source>
        <translation>201 zopakováno, jedna objednávka</translation>
    </message>
    <message>
        <source>Retries within 100 ms, after %1 carts were cut at once</source>
        <translation>Opakování během 100 ms poté, co bylo naráz přerušeno %1 košíků</translation>
    </message>
    <message>
        <source>retries in 100 ms</source>
        <translation>opakování za 100 ms</translation>
    </message>
    <message>
        <source>A client that makes a fresh Idempotency-Key for each attempt defeats the server: after a lost response the retry looks like a new order. Without a business key (business_key_off mode) the cart is ordered twice. With UNIQUE(client_id, cart_id) the second order is refused as cart-already-ordered, naming the first one, which the client reads back and takes as its own: placed, one order.</source>
        <translation>Klient, který pro každý pokus vyrobí nový Idempotency-Key, server obejde: po ztracené odpovědi vypadá opakování jako nová objednávka. Bez obchodního klíče (režim business_key_off) je košík objednán dvakrát. S UNIQUE(client_id, cart_id) je druhá objednávka odmítnuta jako cart-already-ordered s odkazem na tu první; klient si ji načte a vezme za svou: objednáno, jedna objednávka.</translation>
    </message>
    <message>
        <source>422 cart-already-ordered names the first order: placed, one order</source>
        <translation>422 cart-already-ordered jmenuje první objednávku: objednáno, jedna objednávka</translation>
    </message>
    <message>
        <source>already placed</source>
        <comment>attempt outcome</comment>
        <translation>už objednáno</translation>
    </message>
    <message>
        <source>failed</source>
        <comment>attempt outcome</comment>
        <translation>selhalo</translation>
    </message>
    <message>
        <source>A lost acknowledgement: the gateway delivers the webhook again</source>
        <translation>Ztracené potvrzení: brána doručí webhook znovu</translation>
    </message>
    <message>
        <source>the 200 for the next webhook will be lost on its way back to the gateway</source>
        <translation>odpověď 200 na příští webhook se cestou zpět k bráně ztratí</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-r1 (the webhook&apos;s 200 is lost)</source>
        <translation>A: POST /checkout, pay-r1 (odpověď 200 na webhook se ztratí)</translation>
    </message>
    <message>
        <source>; gateway: %1 delivery attempts, %2 acknowledged; </source>
        <translation>; brána: %1 pokusů o doručení, %2 potvrzeno; </translation>
    </message>
    <message>
        <source>201 paid; the event delivered twice, acknowledged the second time; applied once: 1 event row, 1 payment</source>
        <translation>201 zaplaceno; událost doručena dvakrát, potvrzena napodruhé; zpracována jednou: 1 řádek události, 1 platba</translation>
    </message>
    <message>
        <source>Paying a declined cart again</source>
        <translation>Opětovné zaplacení zamítnutého košíku</translation>
    </message>
    <message>
        <source>the gateway declines the next card</source>
        <translation>brána zamítne příští kartu</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-d1, cart-d (declined)</source>
        <translation>A: POST /checkout, pay-d1, cart-d (zamítnuto)</translation>
    </message>
    <message>
        <source>402 payment-declined, stored</source>
        <translation>402 payment-declined, uloženo</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-d2, the same cart-d, another card</source>
        <translation>A: POST /checkout, pay-d2, týž cart-d, jiná karta</translation>
    </message>
    <message>
        <source>201 paid; the cart has one paid order, the declined one is payment_failed</source>
        <translation>201 zaplaceno; košík má jednu zaplacenou objednávku, zamítnutá je payment_failed</translation>
    </message>
    <message>
        <source>A: POST /checkout, pay-d3, the same cart-d once more</source>
        <translation>A: POST /checkout, pay-d3, týž cart-d ještě jednou</translation>
    </message>
    <message>
        <source>422 cart-already-ordered: the paid order holds the cart; still 2 orders</source>
        <translation>422 cart-already-ordered: košík drží zaplacená objednávka; pořád 2 objednávky</translation>
    </message>
    <message>
        <source>A gateway knows a webhook arrived only from the 200 it gets back. When that answer is lost, it delivers the same event again later, with backoff, for days if need be, and keeps its schedule on disk so a restart does not forget it. Each delivery is signed afresh with a timestamp, so an old body replayed by someone else is refused. The server remembers the event by its sender and id: the redelivery is answered 200 duplicate and changes nothing.</source>
        <translation>Brána ví, že webhook dorazil, jen podle odpovědi 200, kterou dostane zpět. Když se tato odpověď ztratí, doručí tutéž událost později znovu, s odstupem, který roste, klidně po několik dní, a svůj plán si drží na disku, takže ho restart nezapomene. Každé doručení je znovu podepsáno s časovým razítkem, takže staré tělo, které přehraje někdo jiný, je odmítnuto. Server si událost pamatuje podle odesílatele a id: na opakované doručení odpoví 200 duplicate a nic nezmění.</translation>
    </message>
    <message>
        <source>A declined card is a definitive answer for its key: the order is cancelled (payment_failed), the stock goes back, and the 402 is stored and replayed. But the cart is not used up: the failed order lets go of it in the same transaction, so the customer pays for the same cart again under a new key, and the business key (one order per cart) still holds for orders that stand.</source>
        <translation>Zamítnutá karta je pro svůj klíč definitivní odpověď: objednávka se zruší (payment_failed), zboží se vrátí na sklad a odpověď 402 se uloží a přehrává. Košík se ale nespotřebuje: neúspěšná objednávka ho ve stejné transakci uvolní, takže zákazník zaplatí týž košík znovu pod novým klíčem, a obchodní klíč (jedna objednávka na košík) dál platí pro objednávky, které trvají.</translation>
    </message>
    <message>
        <source>this scenario needs PostgreSQL: set ONCEORDER_POSTGRES_URI to a connection URI, or start the window with scripts/demo --postgres</source>
        <translation>tento scénář potřebuje PostgreSQL: nastavte ONCEORDER_POSTGRES_URI na adresu připojení, nebo spusťte okno přes scripts/demo --postgres</translation>
    </message>
    <message>
        <source>two instances on one PostgreSQL database</source>
        <translation>dvě instance nad jednou databází PostgreSQL</translation>
    </message>
    <message>
        <source>two instances on one SQLite file</source>
        <translation>dvě instance nad jedním souborem SQLite</translation>
    </message>
    <message>
        <source>instance 1</source>
        <translation>instance 1</translation>
    </message>
    <message>
        <source>instance 2</source>
        <translation>instance 2</translation>
    </message>
    <message>
        <source>did not see %1 within %2 s</source>
        <translation>během %2 s nebylo vidět: %1</translation>
    </message>
    <message>
        <source>the first copy&apos;s open transaction</source>
        <translation>otevřená transakce první kopie</translation>
    </message>
    <message>
        <source>instance 1: A: %1, kniha × 1, held open</source>
        <translation>instance 1: A: %1, kniha × 1, drženo otevřené</translation>
    </message>
    <message>
        <source>transaction open (%1), its last statement: %2</source>
        <translation>transakce otevřená (stav „%1“), její poslední příkaz: %2</translation>
    </message>
    <message>
        <source>the second copy waiting on a lock</source>
        <translation>druhá kopie čekající na zámek</translation>
    </message>
    <message>
        <source>instance 2: the same request (%1), while the first is open</source>
        <translation>instance 2: týž požadavek (%1), zatímco první je otevřený</translation>
    </message>
    <message>
        <source>waits on a lock (%1), blocked by backend %2: %3</source>
        <translation>čeká na zámek (%1), blokuje ji backend %2: %3</translation>
    </message>
    <message>
        <source>waits for the first transaction</source>
        <translation>čeká na první transakci</translation>
    </message>
    <message>
        <source>PostgreSQL: the second INSERT waits, then replays</source>
        <translation>PostgreSQL: druhý INSERT počká, pak přehraje odpověď</translation>
    </message>
    <message>
        <source>Two server instances share one PostgreSQL database; nothing in either process serialises them. The first copy of a request holds its transaction open for 2 s (a delay fault) after its writes, its key row among them. The second copy, on the other instance, runs INSERT … ON CONFLICT DO NOTHING on the same key: PostgreSQL makes it wait on the unique index (pg_stat_activity shows it waiting on the first backend). When the first commits, the second inserts nothing, reads the stored answer and replays it. One order.</source>
        <translation>Dvě instance serveru sdílejí jednu databázi PostgreSQL; v žádném z procesů je nic neřadí za sebe. První kopie požadavku po svých zápisech (mezi nimi řádek klíče) drží transakci 2 s otevřenou (porucha se zpožděním). Druhá kopie na druhé instanci spustí INSERT … ON CONFLICT DO NOTHING se stejným klíčem: PostgreSQL ji nechá čekat na jedinečném indexu (pg_stat_activity ukazuje, že čeká na první backend). Když první potvrdí, druhá nic nevloží, přečte uloženou odpověď a přehraje ji. Jedna objednávka.</translation>
    </message>
    <message>
        <source>the next transaction stays open for 2 s</source>
        <translation>příští transakce zůstane 2 s otevřená</translation>
    </message>
    <message>
        <source>instance 1: the first copy&apos;s answer</source>
        <translation>instance 1: odpověď první kopii</translation>
    </message>
    <message>
        <source>instance 2: the second copy&apos;s answer</source>
        <translation>instance 2: odpověď druhé kopii</translation>
    </message>
    <message>
        <source>the same 201 replayed, one order</source>
        <translation>tatáž 201 přehraná, jedna objednávka</translation>
    </message>
    <message>
        <source>PostgreSQL: the first rolls back, the waiting second places the order</source>
        <translation>PostgreSQL: první se vrátí, čekající druhá vytvoří objednávku</translation>
    </message>
    <message>
        <source>As before, a second copy waits on the unique index for the first one&apos;s transaction. This time the first fails after 2 s (fail-before-commit) and rolls back: its key row was never committed. The waiting INSERT then succeeds, and the second copy processes the order itself: 201, not a replay. The first client&apos;s retry with the same key is then answered from the second&apos;s stored response.</source>
        <translation>Jako předtím čeká druhá kopie na jedinečném indexu na transakci té první. Tentokrát první po 2 s selže (fail-before-commit) a vrátí se: její řádek klíče nikdy nebyl potvrzen. Čekající INSERT pak uspěje a druhá kopie zpracuje objednávku sama: 201, ne přehraná odpověď. Opakování prvního klienta se stejným klíčem pak dostane uloženou odpověď té druhé.</translation>
    </message>
    <message>
        <source>the next transaction stays open for 2 s, then fails</source>
        <translation>příští transakce zůstane 2 s otevřená, pak selže</translation>
    </message>
    <message>
        <source>503, rolled back, nothing stored</source>
        <translation>503, vráceno, nic neuloženo</translation>
    </message>
    <message>
        <source>201 placed by the second itself, not a replay</source>
        <translation>201 vytvořená samotnou druhou kopií, ne přehraná</translation>
    </message>
    <message>
        <source>instance 1: the first client retries R1</source>
        <translation>instance 1: první klient opakuje R1</translation>
    </message>
    <message>
        <source>the second&apos;s 201 replayed</source>
        <translation>přehraná 201 té druhé</translation>
    </message>
    <message>
        <source>PostgreSQL: catching the unique violation versus ON CONFLICT DO NOTHING</source>
        <translation>PostgreSQL: zachycení porušení unikátnosti proti ON CONFLICT DO NOTHING</translation>
    </message>
    <message>
        <source>The mistake (catch_unique_violation mode): a plain INSERT of the key row, its unique violation caught, then the stored answer read, as one might on SQLite, where an error ends only its statement. On PostgreSQL a failed statement aborts the whole transaction: the read fails (&quot;current transaction is aborted&quot;) and the copy that should have been replayed gets an error. The fix, INSERT … ON CONFLICT DO NOTHING, never raises the violation: the second copy waits and replays.</source>
        <translation>Chyba (režim catch_unique_violation): obyčejný INSERT řádku klíče, zachycené porušení unikátnosti a pak čtení uložené odpovědi, jak by to šlo na SQLite, kde chyba ukončí jen svůj příkaz. Na PostgreSQL neúspěšný příkaz přeruší celou transakci: čtení selže („current transaction is aborted“) a kopie, která měla dostat přehranou odpověď, dostane chybu. Oprava, INSERT … ON CONFLICT DO NOTHING, porušení nikdy nevyvolá: druhá kopie počká a přehraje odpověď.</translation>
    </message>
    <message>
        <source>mistake on: plain INSERT, the violation caught</source>
        <translation>chyba zapnuta: obyčejný INSERT, porušení zachyceno</translation>
    </message>
    <message>
        <source>the mistake: instance 2: the second copy&apos;s answer</source>
        <translation>chyba: instance 2: odpověď druhé kopii</translation>
    </message>
    <message>
        <source>an error instead of the replay: the transaction was aborted</source>
        <translation>chyba místo přehrané odpovědi: transakce byla přerušena</translation>
    </message>
    <message>
        <source>the fix: INSERT … ON CONFLICT DO NOTHING</source>
        <translation>oprava: INSERT … ON CONFLICT DO NOTHING</translation>
    </message>
    <message>
        <source>the fix: instance 2: the second copy&apos;s answer</source>
        <translation>oprava: instance 2: odpověď druhé kopii</translation>
    </message>
    <message>
        <source>the first&apos;s 201 replayed</source>
        <translation>přehraná 201 té první</translation>
    </message>
    <message>
        <source>PostgreSQL: a conditional UPDATE waits and is checked again</source>
        <translation>PostgreSQL: podmíněný UPDATE počká a podmínka se ověří znovu</translation>
    </message>
    <message>
        <source>Stock is taken with UPDATE products SET stock = stock − n WHERE id = … AND stock &gt;= n, never read first and written later. A buys all 50 mugs on instance 1, whose transaction stays open for 2 s; B asks for one mug on instance 2 at the same time. B&apos;s UPDATE waits for A&apos;s row; when A commits, PostgreSQL checks B&apos;s condition again against the new row (stock 0) and updates nothing: B is told out of stock. Never a negative stock, never an order without its goods.</source>
        <translation>Zboží se ze skladu bere příkazem „UPDATE products SET stock = stock − n WHERE id = … AND stock &gt;= n“, nikdy napřed přečíst a pak zapsat. A koupí všech 50 hrnků na instanci 1, jejíž transakce zůstane 2 s otevřená; B ve stejnou chvíli chce jeden hrnek na instanci 2. UPDATE od B čeká na řádek, který drží A; když A potvrdí, PostgreSQL ověří podmínku B znovu nad novým řádkem (sklad 0) a nic nezmění: B se dozví, že zboží došlo. Nikdy záporný sklad, nikdy objednávka bez zboží.</translation>
    </message>
    <message>
        <source>A&apos;s open transaction</source>
        <translation>otevřená transakce A</translation>
    </message>
    <message>
        <source>instance 1: A: U1, hrnek × 50, held open</source>
        <translation>instance 1: A: U1, hrnek × 50, drženo otevřené</translation>
    </message>
    <message>
        <source>the stock row is A&apos;s until it commits</source>
        <translation>řádek skladu patří A, dokud nepotvrdí</translation>
    </message>
    <message>
        <source>B&apos;s UPDATE waiting</source>
        <translation>čekající UPDATE od B</translation>
    </message>
    <message>
        <source>instance 2: B: U2, hrnek × 1, at the same time</source>
        <translation>instance 2: B: U2, hrnek × 1, ve stejnou chvíli</translation>
    </message>
    <message>
        <source>UPDATE waits on a lock (%1)</source>
        <translation>UPDATE čeká na zámek (%1)</translation>
    </message>
    <message>
        <source>waits for A&apos;s row</source>
        <translation>čeká na řádek A</translation>
    </message>
    <message>
        <source>A&apos;s answer</source>
        <translation>odpověď A</translation>
    </message>
    <message>
        <source>201, all 50 mugs</source>
        <translation>201, všech 50 hrnků</translation>
    </message>
    <message>
        <source>B&apos;s answer, after waiting</source>
        <translation>odpověď B po čekání</translation>
    </message>
    <message>
        <source>422 out of stock: the condition checked again</source>
        <translation>422 out-of-stock: podmínka ověřena znovu</translation>
    </message>
    <message>
        <source>the mugs&apos; stock afterwards</source>
        <translation>sklad hrnků potom</translation>
    </message>
    <message>
        <source>0, not −1</source>
        <translation>0, ne −1</translation>
    </message>
    <message>
        <source>SQLite: two instances on one file wait for each other, whatever the key</source>
        <translation>SQLite: dvě instance nad jedním souborem na sebe čekají, ať je klíč jakýkoli</translation>
    </message>
    <message>
        <source>The article&apos;s warning: SQLite locks the whole database for writing, so infer nothing about concurrency from it. Two instances share one SQLite file. Client A&apos;s order holds instance 1&apos;s write transaction open for %1 s; client B places an unrelated order (another client, another key) on instance 2. On PostgreSQL it would go in at once; here it waits for the file&apos;s write lock until the 10 s busy timeout and fails with &quot;database is locked&quot; (503, nothing stored, a retry succeeds).</source>
        <translation>Varování z článku: SQLite zamyká pro zápis celou databázi, takže z něj o souběhu nic nevyvozujte. Dvě instance sdílejí jeden soubor SQLite. Objednávka klienta A drží zápisovou transakci instance 1 otevřenou %1 s; klient B zadá na instanci 2 nesouvisející objednávku (jiný klient, jiný klíč). Na PostgreSQL by prošla hned; tady čeká na zámek souboru až do desetisekundového limitu pro zamčenou databázi a selže s „database is locked“ (503, nic neuloženo, opakování uspěje).</translation>
    </message>
    <message>
        <source>the next transaction stays open for %1 s</source>
        <translation>příští transakce zůstane %1 s otevřená</translation>
    </message>
    <message>
        <source>instance 1 holding the file&apos;s write lock</source>
        <translation>instance 1 drží zámek souboru pro zápis</translation>
    </message>
    <message>
        <source>A&apos;s request taking the fault</source>
        <translation>požadavek A, který si vezme poruchu</translation>
    </message>
    <message>
        <source>instance 1: A: S1, kniha × 1, held open</source>
        <translation>instance 1: A: S1, kniha × 1, drženo otevřené</translation>
    </message>
    <message>
        <source>the whole file is locked for writing</source>
        <translation>celý soubor je zamčený pro zápis</translation>
    </message>
    <message>
        <source>instance 2: B: S2, kniha × 1 (another client and key)</source>
        <translation>instance 2: B: S2, kniha × 1 (jiný klient a klíč)</translation>
    </message>
    <message>
        <source>%1 after %2 s</source>
        <translation>%1 po %2 s</translation>
    </message>
    <message>
        <source>503 &quot;database is locked&quot; after the busy timeout</source>
        <translation>503 „database is locked“ po vypršení limitu</translation>
    </message>
    <message>
        <source>instance 1: A&apos;s answer</source>
        <translation>instance 1: odpověď A</translation>
    </message>
    <message>
        <source>instance 2: B retries S2</source>
        <translation>instance 2: B opakuje S2</translation>
    </message>
    <message>
        <source>201, B&apos;s order (the 503 was not stored)</source>
        <translation>201, objednávka B (503 se neuložila)</translation>
    </message>
    <message>
        <source>unexpected first line from the server: %1</source>
        <translation>nečekaný první řádek od serveru: %1</translation>
    </message>
    <message>
        <source>the server on %1 ended before it listened (its log: %1.log)</source>
        <translation>server nad %1 skončil dřív, než začal naslouchat (jeho log: %1.log)</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>nelze spustit %1: %2</translation>
    </message>
    <message>
        <source>no server named %1 to kill</source>
        <translation>žádný server %1, který by šlo zabít</translation>
    </message>
    <message>
        <source>%1: the standby holds %2 of %3 commits, %4 behind</source>
        <translation>%1: záloha má %2 z %3 potvrzení, %4 chybí</translation>
    </message>
    <message>
        <source>POST /_debug/replication answered %1</source>
        <translation>POST /_debug/replication odpověděl %1</translation>
    </message>
    <message>
        <source>primary: A: %1, kniha × 1</source>
        <translation>primární: A: %1, kniha × 1</translation>
    </message>
    <message>
        <source>201, a new order: the client stops retrying</source>
        <translation>201, nová objednávka: klient přestane opakovat</translation>
    </message>
    <message>
        <source>the standby, once the 201 was sent</source>
        <translation>záloha ve chvíli, kdy odešla 201</translation>
    </message>
    <message>
        <source>failover: the primary is killed (SIGKILL), the standby promoted</source>
        <translation>failover: primární je zabit (SIGKILL), záloha povýšena</translation>
    </message>
    <message>
        <source>a new server on %1: %2</source>
        <translation>nový server nad %1: %2</translation>
    </message>
    <message>
        <source>promoted: A: GET /orders/%1, the acknowledged order</source>
        <translation>povýšená: A: GET /orders/%1, potvrzená objednávka</translation>
    </message>
    <message>
        <source>promoted: A retries %1, the same request</source>
        <translation>povýšená: A opakuje %1, týž požadavek</translation>
    </message>
    <message>
        <source>Failover: asynchronous replication loses an acknowledged order, synchronous does not</source>
        <translation>Failover: asynchronní replikace ztratí potvrzenou objednávku, synchronní ne</translation>
    </message>
    <message>
        <source>The key lives in the database, so it is exactly as durable as the database. A production database is a primary and a standby; when the primary dies, the standby is promoted. With asynchronous replication the primary answers 201 before the standby has the commit: if it dies then, the promoted standby has neither the order nor its key. The customer was told the order was placed; the client stopped retrying; and a retry with the same key would not be recognised, it places a new order (here even under the same order number). With synchronous replication the 201 waits until the standby has the commit, and nothing acknowledged is lost. Here the standby is a second SQLite file the server copies each commit into (the online backup API); the asynchronous copy is held back so that the loss is certain, not luck. PostgreSQL does the same with WAL streaming.</source>
        <translation>Klíč žije v databázi, a je tedy přesně tak trvanlivý jako databáze. Produkční databáze je primární server a záloha (standby); když primární zemře, záloha se povýší. Při asynchronní replikaci odpoví primární 201 dřív, než záloha potvrzení má: zemře-li právě tehdy, povýšená záloha nemá ani objednávku, ani její klíč. Zákazník slyšel, že objednávka je přijata; klient přestal opakovat; a opakování se stejným klíčem by se nepoznalo, vytvoří novou objednávku (tady dokonce pod stejným číslem). Při synchronní replikaci čeká 201, dokud potvrzení nemá i záloha, a nic potvrzeného se neztratí. Tady je záloha druhý soubor SQLite, do kterého server kopíruje každé potvrzení (online backup API); asynchronní kopie je zadržena, aby ztráta byla jistá, ne náhoda. PostgreSQL dělá totéž proudem WAL.</translation>
    </message>
    <message>
        <source>asynchronous: a primary, its standby&apos;s copy held back</source>
        <translation>asynchronní: primární server, kopie do zálohy zadržena</translation>
    </message>
    <message>
        <source>behind: the 201 went out first</source>
        <translation>pozadu: 201 odešla dřív</translation>
    </message>
    <message>
        <source>404: the acknowledged order is gone</source>
        <translation>404: potvrzená objednávka zmizela</translation>
    </message>
    <message>
        <source>201 not replayed: the key was lost too, a new order</source>
        <translation>201 nezopakovaná: ztratil se i klíč, nová objednávka</translation>
    </message>
    <message>
        <source>synchronous: a primary, each commit copied before it answers</source>
        <translation>synchronní: primární server, každé potvrzení zkopíruje dřív, než odpoví</translation>
    </message>
    <message>
        <source>nothing behind: the standby had it first</source>
        <translation>nic nechybí: záloha ji měla dřív</translation>
    </message>
    <message>
        <source>200: the order survived</source>
        <translation>200: objednávka přežila</translation>
    </message>
    <message>
        <source>201 replayed: the key survived with the order</source>
        <translation>201 zopakovaná: klíč přežil s objednávkou</translation>
    </message>
    <message>
        <source>%1, the server says: “%2”</source>
        <translation>%1, server píše: „%2“</translation>
    </message>
    <message>
        <source>every request and answer gets through</source>
        <translation>každý požadavek i odpověď projde</translation>
    </message>
    <message>
        <source>down, nothing gets through</source>
        <translation>nefunguje, nic neprojde</translation>
    </message>
    <message>
        <source>requests are lost on the way to the server</source>
        <translation>požadavky se ztrácejí cestou k serveru</translation>
    </message>
    <message>
        <source>answers are lost on the way back</source>
        <translation>odpovědi se ztrácejí na cestě zpět</translation>
    </message>
    <message>
        <source>slow in both directions</source>
        <translation>pomalá v obou směrech</translation>
    </message>
    <message>
        <source>requests vanish and are never answered</source>
        <translation>požadavky mizí a odpověď nikdy nepřijde</translation>
    </message>
    <message>
        <source>some answers are lost on the way back</source>
        <translation>některé odpovědi se ztrácejí na cestě zpět</translation>
    </message>
    <message>
        <source>duplicated by the server</source>
        <comment>submission state</comment>
        <translation>zdvojeno serverem</translation>
    </message>
</context>
<context>
    <name>onceorder::core::ServerMonitor</name>
    <message>
        <source>the server&apos;s answer is not a debug state</source>
        <translation>odpověď serveru není ladicí stav</translation>
    </message>
    <message>
        <source>GET /products answered 200 without a product list</source>
        <translation>GET /products odpověděl 200 bez seznamu zboží</translation>
    </message>
    <message>
        <source>GET /products answered %1</source>
        <translation>GET /products odpověděl %1</translation>
    </message>
</context>
<context>
    <name>onceorder::core::StorageGuard</name>
    <message>
        <source>the client&apos;s state database failed: %1</source>
        <translation>databáze stavu klienta selhala: %1</translation>
    </message>
</context>
<context>
    <name>onceorder::core::SubmissionEngine</name>
    <message>
        <source>interrupted: the client stopped before the answer arrived</source>
        <translation>přerušeno: klient skončil dřív, než dorazila odpověď</translation>
    </message>
    <message>
        <source>abandoned by the user; the order may exist on the server (reconcile to know)</source>
        <translation>opuštěno uživatelem; objednávka na serveru může existovat (ověřte ji)</translation>
    </message>
    <message>
        <source>cart %1 is still pending for %2 with the key that server knows; finish it there (resume with that server) before ordering it here</source>
        <translation>košík %1 ještě čeká na server %2 s klíčem, který zná ten server; dokončete ho tam (resume s tím serverem), než ho objednáte zde</translation>
    </message>
    <message>
        <source>cart %1 is still pending with other lines; its key stands for those, so it is not changed: wait for it to settle, or order the new lines as a new cart</source>
        <translation>košík %1 ještě čeká s jinými položkami; jeho klíč patří k nim, proto se nemění: počkejte na výsledek, nebo objednejte nové položky jako nový košík</translation>
    </message>
    <message>
        <source>the retry window ended before the next attempt (deadline %1): the server may have forgotten the key, so it is not sent again; asking the server for the cart instead</source>
        <translation>okno pro opakování skončilo před dalším pokusem (termín %1): server už mohl klíč zapomenout, proto se znovu neposílá; místo toho se ptáme serveru na košík</translation>
    </message>
    <message>
        <source>the client&apos;s state database failed earlier; nothing is sent until it works again</source>
        <translation>databáze stavu klienta dříve selhala; dokud zase nebude fungovat, nic se neodešle</translation>
    </message>
    <message>
        <source>placed after all: the server&apos;s answer (order %1) came after the cart was given up</source>
        <translation>nakonec přijata: odpověď serveru (objednávka %1) přišla až poté, co byl košík vzdán</translation>
    </message>
    <message>
        <source>placed after all: the server&apos;s answer (order %1) came after the cart was abandoned</source>
        <translation>nakonec přijata: odpověď serveru (objednávka %1) přišla až poté, co byl košík opuštěn</translation>
    </message>
    <message>
        <source>placed after all: the server placed order %1 for this cart with this key after all</source>
        <translation>nakonec přijata: server pro tento košík s tímto klíčem přece jen vytvořil objednávku %1</translation>
    </message>
    <message>
        <source>cart %1 already has order %2 with other lines; a cart id names one order, so nothing is sent: order the new lines as a new cart</source>
        <translation>košík %1 už má objednávku %2 s jinými položkami; id košíku označuje jednu objednávku, proto se nic neodesílá: nové položky objednejte jako nový košík</translation>
    </message>
    <message>
        <source>cart %1 is already placed as order %2; nothing was sent</source>
        <translation>košík %1 je již objednán jako objednávka %2; nic nebylo odesláno</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::CartPanel</name>
    <message>
        <source>Cart</source>
        <translation>Košík</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Množství</translation>
    </message>
    <message>
        <source>Pay now by card</source>
        <translation>Zaplatit hned kartou</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Odebrat</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Objednat</translation>
    </message>
    <message>
        <source>Send the cart with its Idempotency-Key; clicking again re-sends the same key</source>
        <translation>Odešle košík s jeho Idempotency-Key; další kliknutí pošle znovu tentýž klíč</translation>
    </message>
    <message>
        <source>Order and pay in one request (POST /checkout): the server calls a payment gateway in the middle, in phases it can resume, so a retry never charges twice</source>
        <translation>Objednat a zaplatit jedním požadavkem (POST /checkout): server uprostřed volá platební bránu, ve fázích, od kterých umí pokračovat, takže opakovaný pokus nikdy nestrhne platbu dvakrát</translation>
    </message>
    <message>
        <source>Order and pay</source>
        <translation>Objednat a zaplatit</translation>
    </message>
    <message>
        <source>Quantity of %1 in the cart</source>
        <translation>Množství zboží %1 v košíku</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::CataloguePanel</name>
    <message>
        <source>Catalogue</source>
        <translation>Katalog</translation>
    </message>
    <message>
        <source>Add to cart</source>
        <translation>Přidat do košíku</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>In stock</source>
        <translation>Skladem</translation>
    </message>
    <message>
        <source>sold out</source>
        <translation>vyprodáno</translation>
    </message>
    <message>
        <source>Double-click a product, or press Enter on it, to add it to the cart</source>
        <translation>Produkt přidáte do košíku dvojklikem nebo klávesou Enter</translation>
    </message>
    <message>
        <source>Product to add</source>
        <translation>Zboží k přidání</translation>
    </message>
    <message>
        <source>Quantity to add</source>
        <translation>Množství k přidání</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::CentralArea</name>
    <message>
        <source>Current submission and my orders</source>
        <translation>Aktuální odeslání a moje objednávky</translation>
    </message>
    <message>
        <source>Current submission</source>
        <translation>Aktuální odeslání</translation>
    </message>
    <message>
        <source>My orders</source>
        <translation>Moje objednávky</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::DebugPanel</name>
    <message>
        <source>Debug panel: break it on purpose</source>
        <translation>Ladicí panel: rozbijte to schválně</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>Hotovo: %1</translation>
    </message>
    <message>
        <source> — the server needs --debug-endpoints</source>
        <translation> — server potřebuje --debug-endpoints</translation>
    </message>
    <message>
        <source>%1 failed: %2%3</source>
        <translation>%1 selhalo: %2%3</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>This client uses an external server: these controls work only if it was started with --debug-endpoints.</source>
        <translation>Tento klient používá externí server: tyto ovládací prvky fungují, jen když byl spuštěn s --debug-endpoints.</translation>
    </message>
    <message>
        <source>How many of the next order requests the fault hits</source>
        <translation>Kolik následujících požadavků na objednávku porucha zasáhne</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> ms</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Requests:</source>
        <translation>Požadavků:</translation>
    </message>
    <message>
        <source>Delay:</source>
        <translation>Zpoždění:</translation>
    </message>
    <message>
        <source>Retry-After:</source>
        <translation>Retry-After:</translation>
    </message>
    <message>
        <source>Fail before commit</source>
        <translation>Chyba před commitem</translation>
    </message>
    <message>
        <source>The transaction rolls back and the server answers 503: nothing is stored, the retry places it.</source>
        <translation>Transakce se vrátí a server odpoví 503: nic se neuloží, opakovaný pokus objednávku vytvoří.</translation>
    </message>
    <message>
        <source>Crash before commit</source>
        <translation>Pád před commitem</translation>
    </message>
    <message>
        <source>The server dies mid-transaction: no order exists; it restarts and the retry places it.</source>
        <translation>Server spadne uprostřed transakce: objednávka nevznikne; server se restartuje a opakovaný pokus ji vytvoří.</translation>
    </message>
    <message>
        <source>Crash after commit</source>
        <translation>Pád po commitu</translation>
    </message>
    <message>
        <source>The order is committed, the answer never sent: the retry gets the stored answer, replayed.</source>
        <translation>Objednávka je uložena, odpověď se neodešle: opakovaný pokus dostane uloženou odpověď znovu.</translation>
    </message>
    <message>
        <source>Slow transaction</source>
        <translation>Pomalá transakce</translation>
    </message>
    <message>
        <source>The transaction holds the writer lock for the delay: a retry meanwhile waits for it, then gets the replay.</source>
        <translation>Transakce drží zámek zápisu po dobu zpoždění: opakovaný pokus mezitím počká a pak dostane uloženou odpověď.</translation>
    </message>
    <message>
        <source>Unavailable (503)</source>
        <translation>Nedostupný (503)</translation>
    </message>
    <message>
        <source>503 with Retry-After: the client waits as long as the server asks, then retries.</source>
        <translation>503 s Retry-After: klient počká, jak dlouho server žádá, a pak to zkusí znovu.</translation>
    </message>
    <message>
        <source>Disarm</source>
        <translation>Zrušit</translation>
    </message>
    <message>
        <source>Armed: nothing</source>
        <translation>Nastaveno: nic</translation>
    </message>
    <message>
        <source>&lt;b&gt;Teaching modes&lt;/b&gt; — the article&apos;s mistakes, made on purpose:</source>
        <translation>&lt;b&gt;Výukové režimy&lt;/b&gt; — chyby z článku, udělané schválně:</translation>
    </message>
    <message>
        <source>Check, then insert</source>
        <translation>Nejdřív ověřit, pak vložit</translation>
    </message>
    <message>
        <source>Looks the key up, then inserts it: two simultaneous retries both pass and order twice.</source>
        <translation>Klíč nejdřív vyhledá, pak vloží: dva souběžné pokusy projdou oba a objednají dvakrát.</translation>
    </message>
    <message>
        <source>Keys shared by all clients</source>
        <translation>Klíče sdílené všemi klienty</translation>
    </message>
    <message>
        <source>Client B sending A&apos;s key gets A&apos;s stored answer: another client&apos;s data leaks.</source>
        <translation>Klient B s klíčem klienta A dostane uloženou odpověď A: data jiného klienta uniknou.</translation>
    </message>
    <message>
        <source>Store transient errors</source>
        <translation>Ukládat přechodné chyby</translation>
    </message>
    <message>
        <source>A temporary failure is stored under the key: every retry replays the failure forever.</source>
        <translation>Dočasná chyba se uloží pod klíčem: každý další pokus ji navždy jen zopakuje.</translation>
    </message>
    <message>
        <source>Business key off</source>
        <translation>Bez obchodního klíče</translation>
    </message>
    <message>
        <source>No one-order-per-cart rule: with a new key per click, duplicates appear in Orders.</source>
        <translation>Neplatí „jeden košík, jedna objednávka“: s novým klíčem pro každé kliknutí se v Objednávkách objeví duplicity.</translation>
    </message>
    <message>
        <source>Reset the server</source>
        <translation>Resetovat server</translation>
    </message>
    <message>
        <source>Deletes orders and keys, restores stock, clears faults: a clean slate.</source>
        <translation>Smaže objednávky a klíče, obnoví zásoby, zruší poruchy: čistý stůl.</translation>
    </message>
    <message>
        <source>Kill the server</source>
        <translation>Zabít server</translation>
    </message>
    <message>
        <source>kill -9 the bundled server: requests fail until it restarts by itself.</source>
        <translation>kill -9 na přibalený server: požadavky selhávají, dokud se sám nerestartuje.</translation>
    </message>
    <message>
        <source>Only the bundled server can be killed from here.</source>
        <translation>Odtud lze zabít jen přibalený server.</translation>
    </message>
    <message>
        <source>Network (between this client and the server)</source>
        <translation>Síť (mezi tímto klientem a serverem)</translation>
    </message>
    <message>
        <source>Pass</source>
        <translation>Propouštět</translation>
    </message>
    <message>
        <source>Everything goes through untouched.</source>
        <translation>Vše projde beze změny.</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Connections are refused: the request is surely not sent, so retrying is safe.</source>
        <translation>Spojení jsou odmítnuta: požadavek jistě nebyl odeslán, opakovat je tedy bezpečné.</translation>
    </message>
    <message>
        <source>Drop the request</source>
        <translation>Zahodit požadavek</translation>
    </message>
    <message>
        <source>The request is lost on the way: the server never sees it; the retry places the order.</source>
        <translation>Požadavek se cestou ztratí: server ho nikdy nevidí; opakovaný pokus objednávku vytvoří.</translation>
    </message>
    <message>
        <source>Drop the response</source>
        <translation>Zahodit odpověď</translation>
    </message>
    <message>
        <source>The order is placed but the answer is lost: the retry with the same key is replayed, not doubled.</source>
        <translation>Objednávka vznikne, ale odpověď se ztratí: pokus se stejným klíčem dostane uloženou odpověď, nic se nezdvojí.</translation>
    </message>
    <message>
        <source>Delay</source>
        <translation>Zpoždění</translation>
    </message>
    <message>
        <source>Every exchange waits for the delay: slow networks make timeouts and overlapping retries.</source>
        <translation>Každá výměna čeká po dobu zpoždění: pomalá síť způsobuje vypršení časů a překrývající se pokusy.</translation>
    </message>
    <message>
        <source>Black hole</source>
        <translation>Černá díra</translation>
    </message>
    <message>
        <source>Nothing comes back and nothing closes: only the client&apos;s timeout ends the attempt.</source>
        <translation>Nic se nevrátí a nic se nezavře: pokus ukončí jen časový limit klienta.</translation>
    </message>
    <message>
        <source>Flaky</source>
        <translation>Nespolehlivá</translation>
    </message>
    <message>
        <source>Each exchange fails with the probability below: retries with backoff get through.</source>
        <translation>Každá výměna selže s pravděpodobností níže: opakování s odstupem nakonec projdou.</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Režim:</translation>
    </message>
    <message>
        <source>Failure probability:</source>
        <translation>Pravděpodobnost selhání:</translation>
    </message>
    <message>
        <source>Client (this window)</source>
        <translation>Klient (toto okno)</translation>
    </message>
    <message>
        <source>Crash the app now</source>
        <translation>Shodit aplikaci hned</translation>
    </message>
    <message>
        <source>The client dies at once, like a power cut: start it again and a pending order resumes with its key.</source>
        <translation>Klient okamžitě skončí jako při výpadku proudu: po novém spuštění nevyřízená objednávka pokračuje se svým klíčem.</translation>
    </message>
    <message>
        <source>Crash after the next send</source>
        <translation>Spadnout po dalším odeslání</translation>
    </message>
    <message>
        <source>The request reaches the server, the client dies before the answer: the next start resumes and is replayed.</source>
        <translation>Požadavek dorazí na server, klient spadne před odpovědí: další spuštění pokračuje a dostane uloženou odpověď.</translation>
    </message>
    <message>
        <source>One key per cart (correct)</source>
        <translation>Jeden klíč na košík (správně)</translation>
    </message>
    <message>
        <source>A new key per click</source>
        <translation>Nový klíč při každém kliknutí</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>Bez klíče</translation>
    </message>
    <message>
        <source>Key strategy:</source>
        <translation>Strategie klíčů:</translation>
    </message>
    <message>
        <source>Every retry and every click re-sends the cart&apos;s one key: the server places it once.</source>
        <translation>Každý pokus i kliknutí posílá jediný klíč košíku: server objedná jen jednou.</translation>
    </message>
    <message>
        <source>Each click is a new request to the server: a second click after a lost answer orders twice.</source>
        <translation>Každé kliknutí je pro server nový požadavek: druhé kliknutí po ztracené odpovědi objedná dvakrát.</translation>
    </message>
    <message>
        <source>Without a key the server cannot tell a retry from a new order.</source>
        <translation>Bez klíče server nerozezná opakovaný pokus od nové objednávky.</translation>
    </message>
    <message>
        <source>The network conditioner is not part of this build yet: these controls do not change anything.</source>
        <translation>Síťový simulátor zatím není součástí tohoto sestavení: tyto ovládací prvky nic nemění.</translation>
    </message>
    <message>
        <source>Clears every armed fault, the gateway&apos;s too.</source>
        <translation>Zruší všechny nastavené poruchy, i ty u platební brány.</translation>
    </message>
    <message>
        <source>Payment gateway (orders paid now by card)</source>
        <translation>Platební brána (objednávky placené hned kartou)</translation>
    </message>
    <message>
        <source>POST /checkout runs in phases around the gateway call. These act on the next charges (Requests and Delay above).</source>
        <translation>POST /checkout probíhá ve fázích kolem volání platební brány. Tyto poruchy zasáhnou další platby (Požadavků a Zpoždění viz výše).</translation>
    </message>
    <message>
        <source>Decline the card</source>
        <translation>Zamítnout kartu</translation>
    </message>
    <message>
        <source>A definitive answer: the order is cancelled, 402 is stored, and every retry gets it replayed.</source>
        <translation>Definitivní odpověď: objednávka se zruší, uloží se 402 a každý opakovaný pokus dostane tuto uloženou odpověď.</translation>
    </message>
    <message>
        <source>Lose the gateway&apos;s answer</source>
        <translation>Ztratit odpověď brány</translation>
    </message>
    <message>
        <source>The card is charged, the answer lost: the retry sends the gateway the same key and is not charged again.</source>
        <translation>Platba se z karty strhne, odpověď se ztratí: opakovaný pokus pošle bráně stejný klíč a podruhé se nic nestrhne.</translation>
    </message>
    <message>
        <source>Gateway down</source>
        <translation>Výpadek brány</translation>
    </message>
    <message>
        <source>Fails before charging: 503, the recovery point stays, and the retry goes on from it.</source>
        <translation>Selže před stržením platby: 503, bod obnovy zůstane a opakovaný pokus od něj pokračuje.</translation>
    </message>
    <message>
        <source>Slow gateway</source>
        <translation>Pomalá brána</translation>
    </message>
    <message>
        <source>The charge takes the delay: a second click meanwhile finds the row locked and gets 409.</source>
        <translation>Platba trvá po dobu zpoždění: druhé kliknutí mezitím najde řádek zamčený a dostane 409.</translation>
    </message>
    <message>
        <source>Webhook sent twice</source>
        <translation>Webhook dvakrát</translation>
    </message>
    <message>
        <source>The same event id arrives twice: it is stored once, and the repeat changes nothing.</source>
        <translation>Stejné ID události dorazí dvakrát: uloží se jednou a opakování nic nezmění.</translation>
    </message>
    <message>
        <source>Twin webhooks</source>
        <translation>Dvojčata webhooků</translation>
    </message>
    <message>
        <source>Two event ids for one charge: the conditional status change lets only one of them act.</source>
        <translation>Dvě ID událostí pro jednu platbu: podmíněná změna stavu nechá zapůsobit jen jednu z nich.</translation>
    </message>
    <message>
        <source>after the key row (started)</source>
        <translation>po řádku klíče (started)</translation>
    </message>
    <message>
        <source>after the order (order_created)</source>
        <translation>po objednávce (order_created)</translation>
    </message>
    <message>
        <source>after the gateway charged</source>
        <translation>po stržení platby v bráně</translation>
    </message>
    <message>
        <source>after the payment (payment_charged)</source>
        <translation>po zápisu platby (payment_charged)</translation>
    </message>
    <message>
        <source>after the stored answer (finished)</source>
        <translation>po uložení odpovědi (finished)</translation>
    </message>
    <message>
        <source>Arm</source>
        <translation>Nastavit</translation>
    </message>
    <message>
        <source>Crash the server</source>
        <translation>Shodit server</translation>
    </message>
    <message>
        <source>It restarts; the retry or the completer resumes from the recovery point: one order, one charge.</source>
        <translation>Server se restartuje; opakovaný pokus nebo dokončovač pokračuje od bodu obnovy: jedna objednávka, jedna platba.</translation>
    </message>
    <message>
        <source>Run the completer</source>
        <translation>Spustit dokončovač</translation>
    </message>
    <message>
        <source>Finishes checkouts nobody works on any more, as the server does by itself every 5 s.</source>
        <translation>Dokončí nákupy, na kterých už nikdo nepracuje, jako to server sám dělá každých 5 s.</translation>
    </message>
    <message>
        <source>Armed: %1</source>
        <translation>Nastaveno: %1</translation>
    </message>
    <message>
        <source>Lose the webhook&apos;s 200</source>
        <translation>Ztratit odpověď 200 na webhook</translation>
    </message>
    <message>
        <source>The webhook is applied but the gateway never hears so: it delivers it again a few seconds later, and the repeat changes nothing.</source>
        <translation>Webhook se zpracuje, ale brána se o tom nedozví: za pár sekund ho doručí znovu a opakování nic nezmění.</translation>
    </message>
    <message>
        <source>Fault: number of requests hit</source>
        <translation>Porucha: počet zasažených požadavků</translation>
    </message>
    <message>
        <source>Fault: delay in milliseconds</source>
        <translation>Porucha: zpoždění v milisekundách</translation>
    </message>
    <message>
        <source>Fault: Retry-After in seconds</source>
        <translation>Porucha: Retry-After v sekundách</translation>
    </message>
    <message>
        <source>Checkout crash point</source>
        <translation>Místo pádu pokladny</translation>
    </message>
    <message>
        <source>Network mode</source>
        <translation>Režim sítě</translation>
    </message>
    <message>
        <source>Network delay in milliseconds</source>
        <translation>Zpoždění sítě v milisekundách</translation>
    </message>
    <message>
        <source>Network fault probability in percent</source>
        <translation>Pravděpodobnost poruchy sítě v procentech</translation>
    </message>
    <message>
        <source>Key strategy</source>
        <translation>Strategie klíčů</translation>
    </message>
    <message>
        <source>crash %1</source>
        <translation>pád %1</translation>
    </message>
    <message numerus="yes">
        <source>Armed: “%1” for the next %n request(s)</source>
        <translation>
            <numerusform>Nastaveno: „%1“ pro další %n požadavek</numerusform>
            <numerusform>Nastaveno: „%1“ pro další %n požadavky</numerusform>
            <numerusform>Nastaveno: „%1“ pro dalších %n požadavků</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>“%1” for the next %n checkout(s)</source>
        <translation>
            <numerusform>„%1“ pro další %n nákup</numerusform>
            <numerusform>„%1“ pro další %n nákupy</numerusform>
            <numerusform>„%1“ pro dalších %n nákupů</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>“%1” for the next %n charge(s)</source>
        <translation>
            <numerusform>„%1“ pro další %n platbu</numerusform>
            <numerusform>„%1“ pro další %n platby</numerusform>
            <numerusform>„%1“ pro dalších %n plateb</numerusform>
        </translation>
    </message>
    <message>
        <source>The order is placed but the answer is lost: without the cart&apos;s one key the retry is a new order, so the cart is ordered twice.</source>
        <translation>Objednávka vznikne, ale odpověď se ztratí: bez jednoho klíče košíku je opakování nová objednávka, a tak je košík objednán dvakrát.</translation>
    </message>
    <message>
        <source>Every exchange waits for the delay: an attempt that timed out may still be placed, and without the cart&apos;s one key its retry orders again.</source>
        <translation>Každá výměna čeká po dobu zpoždění: pokus, kterému vypršel čas, mohl přesto vytvořit objednávku, a bez jednoho klíče košíku ji jeho opakování objedná znovu.</translation>
    </message>
    <message>
        <source>Nothing comes back and nothing closes: the client&apos;s timeout ends the attempt, and without the cart&apos;s one key a retry of an order that was placed orders again.</source>
        <translation>Nic se nevrátí a nic se nezavře: pokus ukončí až časový limit klienta, a bez jednoho klíče košíku opakování už vytvořené objednávky objedná znovu.</translation>
    </message>
    <message>
        <source>Each exchange fails with the probability below: without the cart&apos;s one key a retry after a lost answer orders twice.</source>
        <translation>Každá výměna selže s pravděpodobností níže: bez jednoho klíče košíku opakování po ztracené odpovědi objedná dvakrát.</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Nápověda</translation>
    </message>
    <message>
        <source>The &amp;lesson plan</source>
        <translation>&amp;Plán hodiny</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Klávesové zkratky</translation>
    </message>
    <message>
        <source>&amp;About OnceOrder</source>
        <translation>&amp;O aplikaci OnceOrder</translation>
    </message>
    <message>
        <source>teaching.md</source>
        <comment>the lesson plan&apos;s file name in this language</comment>
        <translation>teaching.cs.md</translation>
    </message>
    <message>
        <source>on a catalogue row: add the product to the cart</source>
        <translation>na řádku katalogu: přidá produkt do košíku</translation>
    </message>
    <message>
        <source>Tab, Shift+Tab</source>
        <translation>Tab, Shift+Tab</translation>
    </message>
    <message>
        <source>move between the controls</source>
        <translation>přechod mezi ovládacími prvky</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Klávesové zkratky</translation>
    </message>
    <message>
        <source>About OnceOrder</source>
        <translation>O aplikaci OnceOrder</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;OnceOrder %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Places every order exactly once over an unreliable network: one Idempotency-Key per cart, retried with capped exponential backoff and full jitter. The debug panel breaks the network and the server on purpose, so a class can watch the order still be placed once.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;OnceOrder %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Vytvoří každou objednávku právě jednou i přes nespolehlivou síť: jeden Idempotency-Key na košík, opakování s omezeným exponenciálním odstupem a plným náhodným rozptylem (full jitter). Ladicí panel úmyslně rozbíjí síť i server, aby třída viděla, že objednávka přesto vznikne jen jednou.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Enter or double-click</source>
        <translation>Enter nebo dvojklik</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::LessonViewer</name>
    <message>
        <source>The lesson plan</source>
        <translation>Plán hodiny</translation>
    </message>
    <message>
        <source>The lesson plan could not be read: %1</source>
        <translation>Plán hodiny nelze přečíst: %1</translation>
    </message>
    <message>
        <source>Open in another program</source>
        <translation>Otevřít v jiném programu</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::MainWindow</name>
    <message>
        <source>Starting the server…</source>
        <translation>Spouštím server…</translation>
    </message>
    <message>
        <source>OnceOrder — client %1</source>
        <translation>OnceOrder — klient %1</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Zobrazit</translation>
    </message>
    <message>
        <source>● Server failed: %1</source>
        <translation>● Server selhal: %1</translation>
    </message>
    <message>
        <source>Client %1</source>
        <translation>Klient %1</translation>
    </message>
    <message>
        <source>The server takes the client from the API key (%1), never from the order.</source>
        <translation>Server zjistí klienta z API klíče (%1), nikdy z objednávky.</translation>
    </message>
    <message>
        <source>Places every order exactly once, whatever the network does.</source>
        <translation>Každou objednávku vytvoří právě jednou, ať síť dělá cokoli.</translation>
    </message>
    <message>
        <source>● Bundled server up</source>
        <translation>● Přibalený server běží</translation>
    </message>
    <message>
        <source>● Server: external</source>
        <translation>● Server: externí</translation>
    </message>
    <message>
        <source>● Bundled server down — restarting…</source>
        <translation>● Přibalený server neběží — restartuje se…</translation>
    </message>
    <message>
        <source>Pending submissions: %1</source>
        <translation>Nevyřízená odeslání: %1</translation>
    </message>
    <message>
        <source>Network: %1</source>
        <translation>Síť: %1</translation>
    </message>
    <message>
        <source>&amp;Scenarios</source>
        <translation>&amp;Scénáře</translation>
    </message>
    <message>
        <source>Pending submissions: %1 (and %2 for another server, not sent from here)</source>
        <translation>Nevyřízená odeslání: %1 (a %2 pro jiný server, odsud se neposílají)</translation>
    </message>
    <message>
        <source>%1 · database: PostgreSQL</source>
        <translation>%1 · databáze: PostgreSQL</translation>
    </message>
    <message>
        <source>%1 · database: SQLite</source>
        <translation>%1 · databáze: SQLite</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Soubor</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Konec</translation>
    </message>
    <message>
        <source>The outbox cannot be written, so nothing is sent: %1</source>
        <translation>Do odchozí fronty nelze zapisovat, proto se nic neodesílá: %1</translation>
    </message>
    <message>
        <source>Server tables and debug panel</source>
        <translation>Tabulky serveru a ladicí panel</translation>
    </message>
    <message>
        <source>● Not a OnceOrder server: %1</source>
        <translation>● Toto není server OnceOrder: %1</translation>
    </message>
    <message>
        <source>%1 does not answer as onceorder-server does: check --server.</source>
        <translation>%1 neodpovídá jako onceorder-server: zkontrolujte --server.</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::MyOrdersPanel</name>
    <message>
        <source>My orders (on the server)</source>
        <translation>Moje objednávky (na serveru)</translation>
    </message>
    <message>
        <source>Order</source>
        <comment>column: the order number</comment>
        <translation>Číslo</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Položky</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Stav</translation>
    </message>
    <message>
        <source>Placed at</source>
        <translation>Objednáno</translation>
    </message>
    <message>
        <source>My orders on the server</source>
        <translation>Moje objednávky na serveru</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::PresentationZoom</name>
    <message>
        <source>Zoom &amp;in</source>
        <translation>&amp;Přiblížit</translation>
    </message>
    <message>
        <source>Zoom &amp;out</source>
        <translation>&amp;Oddálit</translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation>&amp;Původní velikost</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ResultLine</name>
    <message>
        <source>Order %1 placed after all (it had been given up).</source>
        <translation>Objednávka %1 přece jen vytvořena (klient ji předtím vzdal).</translation>
    </message>
    <message>
        <source>Order %1 placed after all (it had been abandoned).</source>
        <translation>Objednávka %1 přece jen vytvořena (předtím byla opuštěna).</translation>
    </message>
    <message>
        <source>Order %1 placed after all (it had been rejected).</source>
        <translation>Objednávka %1 přece jen vytvořena (předtím byla odmítnuta).</translation>
    </message>
    <message>
        <source>Order %1 placed.</source>
        <translation>Objednávka %1 vytvořena.</translation>
    </message>
    <message>
        <source>Order %1 placed and paid (replayed by the server).</source>
        <translation>Objednávka %1 vytvořena a zaplacena (server zopakoval uloženou odpověď).</translation>
    </message>
    <message>
        <source>Order %1 placed and paid.</source>
        <translation>Objednávka %1 vytvořena a zaplacena.</translation>
    </message>
    <message>
        <source>Order %1 placed (replayed by the server).</source>
        <translation>Objednávka %1 vytvořena (server zopakoval uloženou odpověď).</translation>
    </message>
    <message>
        <source>Rejected (HTTP %1): %2</source>
        <translation>Odmítnuto (HTTP %1): %2</translation>
    </message>
    <message>
        <source>Failed (HTTP %1): %2</source>
        <translation>Selhalo (HTTP %1): %2</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Selhalo: %1</translation>
    </message>
    <message>
        <source>Abandoned: the order may still exist on the server.</source>
        <translation>Opuštěno: objednávka na serveru přesto může existovat.</translation>
    </message>
    <message>
        <source>Not sent: %1</source>
        <translation>Neodesláno: %1</translation>
    </message>
    <message>
        <source>The server duplicated this order: it holds orders %1 and %2 for one cart. Cancel one of them with the shop.</source>
        <translation>Server tuto objednávku zdvojil: pro jeden košík má objednávky %1 a %2. Jednu z nich zrušte u obchodu.</translation>
    </message>
    <message>
        <source>Previous cart: %1</source>
        <translation>Předchozí košík: %1</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ScenarioDialog</name>
    <message>
        <source>Play again</source>
        <translation>Přehrát znovu</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportovat…</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Krok</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>Odpověď</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Objednávky</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>Očekáváno</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>Verdikt</translation>
    </message>
    <message>
        <source>Playing on a fresh server: step %1 of %2…</source>
        <translation>Přehrávám na čistém serveru: krok %1 z %2…</translation>
    </message>
    <message>
        <source>Starting a fresh server…</source>
        <translation>Spouštím čistý server…</translation>
    </message>
    <message>
        <source>PASS</source>
        <translation>PROŠLO</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>SELHALO</translation>
    </message>
    <message>
        <source>PASS in %1 s</source>
        <translation>PROŠLO za %1 s</translation>
    </message>
    <message>
        <source>FAIL in %1 s</source>
        <translation>SELHALO za %1 s</translation>
    </message>
    <message>
        <source>Could not finish: %1</source>
        <translation>Nepodařilo se dokončit: %1</translation>
    </message>
    <message>
        <source>Export the verdict table to</source>
        <translation>Exportovat tabulku verdiktů do</translation>
    </message>
    <message>
        <source>The table could not be written to %1.</source>
        <translation>Tabulku se nepodařilo zapsat do %1.</translation>
    </message>
    <message>
        <source>Saved %1 in %2</source>
        <translation>Uloženo: %1 ve složce %2</translation>
    </message>
    <message>
        <source>Verdict table</source>
        <translation>Tabulka verdiktů</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerTableModel</name>
    <message>
        <source>(none)</source>
        <translation>(žádný)</translation>
    </message>
    <message numerus="yes">
        <source>Duplicate: this cart was ordered %n times</source>
        <translation>
            <numerusform>Duplicita: tento košík byl objednán %nkrát</numerusform>
            <numerusform>Duplicita: tento košík byl objednán %nkrát</numerusform>
            <numerusform>Duplicita: tento košík byl objednán %nkrát</numerusform>
        </translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Klient</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Klíč</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Stav</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Otisk</translation>
    </message>
    <message>
        <source>Stored code</source>
        <translation>Uložený kód</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Objednávka</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Platnost do</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Položky</translation>
    </message>
    <message>
        <source>Cart</source>
        <translation>Košík</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Vytvořeno</translation>
    </message>
    <message>
        <source>Product</source>
        <translation>Produkt</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>Zásoba</translation>
    </message>
    <message>
        <source>locked</source>
        <translation>zamčeno</translation>
    </message>
    <message>
        <source>The gateway&apos;s key is derived from this row id</source>
        <translation>Klíč pro platební bránu se odvozuje z ID tohoto řádku</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>Řádek</translation>
    </message>
    <message>
        <source>Recovery point</source>
        <translation>Bod obnovy</translation>
    </message>
    <message>
        <source>Charge</source>
        <translation>Platba</translation>
    </message>
    <message>
        <source>Lock</source>
        <translation>Zámek</translation>
    </message>
    <message>
        <source>Our key at the gateway</source>
        <translation>Náš klíč v bráně</translation>
    </message>
    <message>
        <source>Amount</source>
        <translation>Částka</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>Způsob</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Výsledek</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>Zapsal</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Událost</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>Účinek</translation>
    </message>
    <message>
        <source>The last finished phase (%1): a retry or the completer resumes after it</source>
        <translation>Poslední dokončená fáze (%1): opakovaný pokus nebo dokončovač pokračuje po ní</translation>
    </message>
    <message>
        <source>Order</source>
        <comment>a column of order ids</comment>
        <translation>Č. obj.</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerTablesDock</name>
    <message>
        <source>Server database (live)</source>
        <translation>Databáze serveru (živě)</translation>
    </message>
    <message>
        <source>Waiting for the server…</source>
        <translation>Čekám na server…</translation>
    </message>
    <message>
        <source>Idempotency keys</source>
        <translation>Idempotenční klíče</translation>
    </message>
    <message>
        <source>One row per (client, key): taken first, completed with the stored answer.</source>
        <translation>Jeden řádek na (klienta, klíč): zabrán jako první, dokončen s uloženou odpovědí.</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Objednávky</translation>
    </message>
    <message>
        <source>What was really ordered. Red rows: one cart ordered twice.</source>
        <translation>Co bylo opravdu objednáno. Červené řádky: jeden košík objednaný dvakrát.</translation>
    </message>
    <message>
        <source>Stock</source>
        <translation>Zásoby</translation>
    </message>
    <message>
        <source>Decremented in the order&apos;s transaction.</source>
        <translation>Snižuje se v transakci objednávky.</translation>
    </message>
    <message numerus="yes">
        <source>Live: %n order(s), %1 key(s); updated %2</source>
        <translation>
            <numerusform>Živě: %n objednávka, klíčů: %1; změna v %2</numerusform>
            <numerusform>Živě: %n objednávky, klíčů: %1; změna v %2</numerusform>
            <numerusform>Živě: %n objednávek, klíčů: %1; změna v %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The server does not show its tables (start it with --debug-endpoints): %1</source>
        <translation>Server své tabulky neukazuje (spusťte ho s --debug-endpoints): %1</translation>
    </message>
    <message>
        <source>Cannot read the server&apos;s tables: %1</source>
        <translation>Tabulky serveru nelze načíst: %1</translation>
    </message>
    <message>
        <source>Checkout keys</source>
        <translation>Klíče pro /checkout</translation>
    </message>
    <message>
        <source>POST /checkout in phases: each row remembers how far it got (the recovery point).</source>
        <translation>POST /checkout po fázích: každý řádek si pamatuje, kam až se dostal (bod obnovy).</translation>
    </message>
    <message>
        <source>Payment gateway</source>
        <translation>Platební brána</translation>
    </message>
    <message>
        <source>Its own books: one charge per key we send it. Amber: charged, not yet recorded by us.</source>
        <translation>Její vlastní účetnictví: jedna platba na každý klíč, který jí pošleme. Žluté řádky: strženo, u nás zatím nezapsáno.</translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation>Webhooky</translation>
    </message>
    <message>
        <source>Every event id once; a repeat or a twin changes nothing.</source>
        <translation>Každé ID události jen jednou; opakování ani dvojče nic nezmění.</translation>
    </message>
    <message>
        <source>Keys: /orders (%1)</source>
        <translation>Klíče: /orders (%1)</translation>
    </message>
    <message>
        <source>Keys: /checkout (%1)</source>
        <translation>Klíče: /checkout (%1)</translation>
    </message>
    <message>
        <source>Charges (%1)</source>
        <translation>Platby (%1)</translation>
    </message>
    <message>
        <source>Webhooks (%1)</source>
        <translation>Webhooky (%1)</translation>
    </message>
    <message>
        <source>PostgreSQL backend %1 has waited %2 ms on a lock (%3) held by %4: %5</source>
        <translation>Proces PostgreSQL %1 čeká %2 ms na zámek (%3), který drží %4: %5</translation>
    </message>
    <message>
        <source>Key tables</source>
        <translation>Tabulky klíčů</translation>
    </message>
    <message>
        <source>Server table: idempotency keys</source>
        <translation>Tabulka serveru: klíče idempotence</translation>
    </message>
    <message>
        <source>Server table: checkout keys</source>
        <translation>Tabulka serveru: klíče pokladny</translation>
    </message>
    <message>
        <source>Stock, payment and webhook tables</source>
        <translation>Tabulky skladu, plateb a webhooků</translation>
    </message>
    <message>
        <source>Server table: stock</source>
        <translation>Tabulka serveru: sklad</translation>
    </message>
    <message>
        <source>Server table: payment gateway charges</source>
        <translation>Tabulka serveru: platby v platební bráně</translation>
    </message>
    <message>
        <source>Server table: webhooks</source>
        <translation>Tabulka serveru: webhooky</translation>
    </message>
    <message>
        <source>Server table: orders</source>
        <translation>Tabulka serveru: objednávky</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::ServerWords</name>
    <message>
        <source>placed</source>
        <comment>order status</comment>
        <translation>vytvořena</translation>
    </message>
    <message>
        <source>awaiting payment</source>
        <comment>order status</comment>
        <translation>čeká na platbu</translation>
    </message>
    <message>
        <source>paid</source>
        <comment>order status</comment>
        <translation>zaplacena</translation>
    </message>
    <message>
        <source>payment failed</source>
        <comment>order status</comment>
        <translation>platba selhala</translation>
    </message>
    <message>
        <source>completed</source>
        <comment>idempotency key status</comment>
        <translation>dokončeno</translation>
    </message>
    <message>
        <source>in progress</source>
        <comment>idempotency key status</comment>
        <translation>zpracovává se</translation>
    </message>
    <message>
        <source>started</source>
        <comment>recovery point</comment>
        <translation>zahájeno</translation>
    </message>
    <message>
        <source>order created</source>
        <comment>recovery point</comment>
        <translation>objednávka vytvořena</translation>
    </message>
    <message>
        <source>payment charged</source>
        <comment>recovery point</comment>
        <translation>platba stržena</translation>
    </message>
    <message>
        <source>finished</source>
        <comment>recovery point</comment>
        <translation>dokončeno</translation>
    </message>
    <message>
        <source>card</source>
        <comment>payment method</comment>
        <translation>karta</translation>
    </message>
    <message>
        <source>charged</source>
        <comment>gateway charge outcome</comment>
        <translation>strženo</translation>
    </message>
    <message>
        <source>declined</source>
        <comment>gateway charge outcome</comment>
        <translation>zamítnuto</translation>
    </message>
    <message>
        <source>checkout</source>
        <comment>who recorded the payment</comment>
        <translation>pokladna</translation>
    </message>
    <message>
        <source>webhook</source>
        <comment>who recorded the payment</comment>
        <translation>webhook</translation>
    </message>
    <message>
        <source>applied: order paid</source>
        <comment>webhook effect</comment>
        <translation>použito: objednávka zaplacena</translation>
    </message>
    <message>
        <source>no change</source>
        <comment>webhook effect</comment>
        <translation>beze změny</translation>
    </message>
    <message>
        <source>repeat, ignored</source>
        <comment>webhook effect</comment>
        <translation>opakování, ignorováno</translation>
    </message>
    <message>
        <source>ignored</source>
        <comment>webhook effect</comment>
        <translation>ignorováno</translation>
    </message>
</context>
<context>
    <name>onceorder::ui::SubmissionTimelineWidget</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopírovat</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Zkusit hned</translation>
    </message>
    <message>
        <source>Abandon…</source>
        <translation>Vzdát…</translation>
    </message>
    <message>
        <source>no submission yet</source>
        <translation>zatím nic neodesláno</translation>
    </message>
    <message>
        <source>The Idempotency-Key: the same on every attempt of this cart</source>
        <translation>Idempotency-Key: stejný při každém pokusu s tímto košíkem</translation>
    </message>
    <message>
        <source>Copy the key, e.g. to find it in the server&apos;s tables or log</source>
        <translation>Zkopíruje klíč, třeba abyste ho našli v tabulkách nebo logu serveru</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Čas</translation>
    </message>
    <message>
        <source>Took</source>
        <translation>Trvalo</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Výsledek</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>Replayed</source>
        <translation>Zopakováno</translation>
    </message>
    <message>
        <source>Then waited</source>
        <translation>Pak čekal</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>Proč</translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same key, same bytes)</source>
        <translation>Pošle další pokus hned, bez čekání (stejný klíč, stejné bajty)</translation>
    </message>
    <message>
        <source>Stop retrying; the order may already exist on the server</source>
        <translation>Přestane to zkoušet; objednávka už na serveru může existovat</translation>
    </message>
    <message>
        <source>Idempotency-Key:</source>
        <translation>Idempotency-Key:</translation>
    </message>
    <message>
        <source>Place an order to see each attempt here.</source>
        <translation>Objednejte a uvidíte tu každý pokus.</translation>
    </message>
    <message>
        <source>in flight…</source>
        <translation>na cestě…</translation>
    </message>
    <message>
        <source>placed</source>
        <translation>vytvořeno</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>odmítnuto</translation>
    </message>
    <message>
        <source>retry later</source>
        <translation>zkusit později</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>neodesláno</translation>
    </message>
    <message>
        <source>maybe sent</source>
        <translation>možná odesláno</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Čeká</translation>
    </message>
    <message>
        <source>Order %1 (replayed)</source>
        <translation>Objednávka %1 (zopakováno)</translation>
    </message>
    <message>
        <source>Order %1 placed</source>
        <translation>Objednávka %1 vytvořena</translation>
    </message>
    <message>
        <source>Rejected (HTTP %1)</source>
        <translation>Odmítnuto (HTTP %1)</translation>
    </message>
    <message>
        <source>Gave up: outcome unknown</source>
        <translation>Vzdáno: výsledek neznámý</translation>
    </message>
    <message>
        <source>Abandoned</source>
        <translation>Opuštěno</translation>
    </message>
    <message>
        <source>%1 (+%2)</source>
        <translation>%1 (+%2)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ano</translation>
    </message>
    <message>
        <source>Idempotent-Replayed: true — the server answered from the stored response</source>
        <translation>Idempotent-Replayed: true — server odpověděl uloženou odpovědí</translation>
    </message>
    <message>
        <source>Attempt %1 is on its way…</source>
        <translation>Pokus %1 je na cestě…</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Odesílám…</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), one key.</source>
        <translation>
            <numerusform>%n pokus, jeden klíč.</numerusform>
            <numerusform>%n pokusy, jeden klíč.</numerusform>
            <numerusform>%n pokusů, jeden klíč.</numerusform>
        </translation>
    </message>
    <message>
        <source>Next attempt in %1</source>
        <translation>Další pokus za %1</translation>
    </message>
    <message>
        <source>Next attempt due now</source>
        <translation>Další pokus právě teď</translation>
    </message>
    <message>
        <source>Abandon this order?</source>
        <translation>Vzdát tuto objednávku?</translation>
    </message>
    <message>
        <source>The server may already have placed this order: an attempt may have arrived even though its answer did not.</source>
        <translation>Server už možná objednávku vytvořil: pokus mohl dorazit, i když jeho odpověď ne.</translation>
    </message>
    <message>
        <source>Check the server first: it looks for an order from this cart. Abandoning only stops this client from retrying.</source>
        <translation>Nejdřív ověřte server: vyhledá objednávku z tohoto košíku. Vzdáním jen tento klient přestane zkoušet znovu.</translation>
    </message>
    <message>
        <source>Check the server first</source>
        <translation>Nejdřív ověřit server</translation>
    </message>
    <message>
        <source>Abandon anyway</source>
        <translation>Přesto vzdát</translation>
    </message>
    <message>
        <source>Keep retrying</source>
        <translation>Zkoušet dál</translation>
    </message>
    <message>
        <source>already placed</source>
        <translation>už objednáno</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>selhalo</translation>
    </message>
    <message>
        <source>Idempotency key of the last submission</source>
        <translation>Klíč idempotence posledního odeslání</translation>
    </message>
    <message>
        <source>Attempts of the last submission</source>
        <translation>Pokusy posledního odeslání</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Klíč</translation>
    </message>
    <message>
        <source>Current submission: every attempt, one key</source>
        <translation>Aktuální odeslání: každý pokus, jeden klíč</translation>
    </message>
    <message>
        <source>Current submission: a new key for every attempt</source>
        <translation>Aktuální odeslání: nový klíč pro každý pokus</translation>
    </message>
    <message>
        <source>Current submission: no key on any attempt</source>
        <translation>Aktuální odeslání: žádný pokus nemá klíč</translation>
    </message>
    <message>
        <source>The Idempotency-Key of cart %1, the same on every attempt, sent to %2</source>
        <translation>Idempotency-Key košíku %1, stejný při každém pokusu, posílaný na %2</translation>
    </message>
    <message>
        <source>Key of attempt %1:</source>
        <translation>Klíč pokusu %1:</translation>
    </message>
    <message>
        <source>Key of the latest attempt:</source>
        <translation>Klíč posledního pokusu:</translation>
    </message>
    <message>
        <source>The mistake &quot;a new key per click&quot;: every attempt, automatic retries included, carries a new Idempotency-Key, so the server cannot tell a retry from a new order. The Key column shows each attempt&apos;s key.</source>
        <translation>Chyba „nový klíč při každém kliknutí“: každý pokus, i automatické opakování, nese nový Idempotency-Key, takže server nerozliší opakování od nové objednávky. Sloupec Klíč ukazuje klíč každého pokusu.</translation>
    </message>
    <message>
        <source>The mistake &quot;no key&quot;: no attempt carries an Idempotency-Key, so the server cannot recognise a retry.</source>
        <translation>Chyba „bez klíče“: žádný pokus nenese Idempotency-Key, takže server opakování nepozná.</translation>
    </message>
    <message>
        <source>none: no Idempotency-Key is sent</source>
        <translation>žádný: Idempotency-Key se neposílá</translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same bytes, a new key)</source>
        <translation>Poslat další pokus hned, nečekat (stejné bajty, nový klíč)</translation>
    </message>
    <message>
        <source>Send the next attempt now instead of waiting (same bytes, no key)</source>
        <translation>Poslat další pokus hned, nečekat (stejné bajty, bez klíče)</translation>
    </message>
    <message>
        <source>Sending the order… (attempt %1)</source>
        <translation>Odesílám objednávku… (pokus %1)</translation>
    </message>
    <message>
        <source>Attempt %1 did not reach the server.</source>
        <translation>Pokus %1 se k serveru nedostal.</translation>
    </message>
    <message>
        <source>Attempt %1 was sent, but no answer came: the server may have placed the order.</source>
        <translation>Pokus %1 byl odeslán, ale odpověď nepřišla: server objednávku možná vytvořil.</translation>
    </message>
    <message>
        <source>Attempt %1 was answered with HTTP %2: the server asks to try again later.</source>
        <translation>Na pokus %1 server odpověděl HTTP %2: žádá zkusit to znovu později.</translation>
    </message>
    <message>
        <source>Attempt %1: this cart was already ordered; reading the order back…</source>
        <translation>Pokus %1: tento košík už byl objednán; načítám objednávku zpět…</translation>
    </message>
    <message>
        <source>Attempt %1 ended without an order.</source>
        <translation>Pokus %1 skončil bez objednávky.</translation>
    </message>
    <message>
        <source>Retrying with the same key…</source>
        <translation>Zkouším znovu se stejným klíčem…</translation>
    </message>
    <message>
        <source>Retrying with a new key…</source>
        <translation>Zkouším znovu s novým klíčem…</translation>
    </message>
    <message>
        <source>Retrying without a key…</source>
        <translation>Zkouším znovu bez klíče…</translation>
    </message>
    <message>
        <source>Planned wait: %1.</source>
        <translation>Plánované čekání: %1.</translation>
    </message>
    <message>
        <source>%1 (planned %2)</source>
        <translation>%1 (plán %2)</translation>
    </message>
    <message>
        <source>Planned %1, but attempt %2 started %3 after this one ended (Retry now, a click on Order, a timer that fired late or a restart).</source>
        <translation>Plán byl %1, ale pokus %2 začal %3 po konci tohoto (Zkusit hned, kliknutí na Objednat, opožděný časovač nebo restart).</translation>
    </message>
    <message>
        <source>Attempt %1 started %2 after this one ended.</source>
        <translation>Pokus %1 začal %2 po konci tohoto.</translation>
    </message>
    <message>
        <source>Technical detail:</source>
        <translation>Technicky:</translation>
    </message>
    <message>
        <source>Not known: this attempt was sent before the window saw it; the client keeps only the latest key.</source>
        <translation>Neznámý: tento pokus odešel dřív, než ho okno vidělo; klient si pamatuje jen poslední klíč.</translation>
    </message>
    <message>
        <source>Idempotency-Key of attempt %1: %2</source>
        <translation>Idempotency-Key pokusu %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), a new key for each.</source>
        <translation>
            <numerusform>%n pokus, pro každý nový klíč.</numerusform>
            <numerusform>%n pokusy, pro každý nový klíč.</numerusform>
            <numerusform>%n pokusů, pro každý nový klíč.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s), no key.</source>
        <translation>
            <numerusform>%n pokus, bez klíče.</numerusform>
            <numerusform>%n pokusy, bez klíče.</numerusform>
            <numerusform>%n pokusů, bez klíče.</numerusform>
        </translation>
    </message>
    <message>
        <source>Attempt %1: nothing went wrong, no wait.</source>
        <translation>Pokus %1: nic se nepokazilo, žádné čekání.</translation>
    </message>
    <message>
        <source>Why, attempt %1: %2</source>
        <translation>Proč, pokus %1: %2</translation>
    </message>
    <message>
        <source>Duplicated by the server: orders %1 and %2</source>
        <translation>Zdvojeno serverem: objednávky %1 a %2</translation>
    </message>
</context>
</TS>
