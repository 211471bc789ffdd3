import type { ReactNode } from "react";
import { TextLink } from "@/components/ui/button";
import type { GuideSlug } from "./guide-list";
import { Note, Ui } from "./prose";

function CreateATree() {
  return (
    <>
      <p>
        Every legacy in Heirloom lives in its own tree. A tree has a title, a description and a
        cover image, and it holds the Sims of that legacy and the way they are related. This guide
        gets your first tree started; the next ones fill it with Sims.
      </p>

      <h2>Before you start</h2>
      <p>
        You need an account to build trees. If you do not have one yet,{" "}
        <TextLink href="/signup">create an account</TextLink> (it takes a username, an e-mail
        address and a password), or <TextLink href="/login">log in</TextLink> if you already have
        one. Once you are logged in, the <Ui>Your Trees</Ui> section of the side navigation lists
        every tree you own. On a phone, open it with the <Ui>Menu</Ui> button at the top left.
      </p>

      <h2>Start a new tree</h2>
      <ol>
        <li>
          In the side navigation, under <Ui>Your Trees</Ui>, choose <Ui>Create New</Ui>. The same
          form opens from <Ui>Create a New Tree</Ui> on the home page.
        </li>
        <li>
          Give the tree a <Ui>Title</Ui>, such as &ldquo;The Plumbob Legacy&rdquo;. The title is
          what you will see in the side navigation and what visitors see on the published tree. A
          tree without a title is shown as &ldquo;Untitled Tree&rdquo;.
        </li>
        <li>
          Write a <Ui>Description</Ui>. This is the place for the story of the legacy: the challenge
          rules you play by, the founder&rsquo;s backstory, a list of heirs. The editor supports{" "}
          <strong>bold</strong>, <em>italic</em>, underline and strikethrough text, and bulleted or
          numbered lists that can be nested up to four levels deep.
        </li>
        <li>
          Add a <Ui>Cover</Ui> image if you like: a screenshot of the family home or the founder
          works well. Pick a JPG or PNG file under 10 MB. Once it has uploaded you can crop it, and
          the preview shows it at the size visitors will see (600 by 320 pixels).
        </li>
        <li>
          Choose <Ui>Create Tree</Ui>. Heirloom saves the tree, adds it to <Ui>Your Trees</Ui> and
          opens it in the Tree Editor. <Ui>Cancel</Ui> takes you back to the home page without
          creating anything.
        </li>
      </ol>
      <Note>
        Every field is optional, so you can create a tree straight away and come back to the title,
        description and cover later.
      </Note>

      <h2>Change the details later</h2>
      <p>
        In the Tree Editor, open the <Ui>Edit</Ui> menu and choose <Ui>Tree Details</Ui>. The{" "}
        <Ui>Update Tree Details</Ui> form shows the current title, description and cover; change
        what you need and choose <Ui>Update Tree Details</Ui> to save and return to the editor, or{" "}
        <Ui>Cancel</Ui> to go back without changes.
      </p>

      <h2>One tree per legacy</h2>
      <p>
        Keep each legacy in its own tree. When a Sim belongs to two families (a spouse who married
        in, or a spare who founded a legacy of their own), you can link the two trees together
        later, as the guide on{" "}
        <TextLink href="/guides/linking-sims-to-other-trees">linking Sims</TextLink> explains.
      </p>
    </>
  );
}

function TreeEditor() {
  return (
    <>
      <p>
        The Tree Editor is where you shape a legacy. Open it by choosing a tree under{" "}
        <Ui>Your Trees</Ui> in the side navigation. While the tree and its Sims load you will see
        &ldquo;Loading Tree&rdquo;.
      </p>

      <h2>The toolbar</h2>
      <p>
        The bar titled <Ui>Tree Editor</Ui> across the top holds two menus and a checkbox:
      </p>
      <ul>
        <li>
          <Ui>Actions</Ui>: <Ui>Save Tree</Ui>, <Ui>Publish Tree</Ui> (opens the publish settings)
          and <Ui>Delete Tree</Ui>.
        </li>
        <li>
          <Ui>Edit</Ui>: <Ui>Tree Details</Ui> (title, description and cover) and{" "}
          <Ui>People in Tree</Ui> (the list of the tree&rsquo;s Sims).
        </li>
        <li>
          <Ui>Preview</Ui>: shows the tree read-only, the way visitors see it.
        </li>
      </ul>
      <p>
        On a narrow screen the same items are gathered in a single menu button, under the headings
        Actions, Edit and Preview. Menus close by themselves when the window is resized.
      </p>

      <h2>Moving around the tree</h2>
      <p>
        The tree is drawn on a canvas below the toolbar. Scroll with the mouse wheel (or pinch on a
        touch screen) to zoom anywhere from a tenth of the normal size to three times it, and drag
        to pan. The tree starts centred at the top. The <Ui>Tree Info</Ui> button at the top left
        opens a panel with the cover, title and description; <Ui>Close</Ui> hides it again.
      </p>

      <h2>Reading a node</h2>
      <p>
        A tree is made of nodes. Each node shows one main Sim, that Sim&rsquo;s partners to the
        right, and the node&rsquo;s children below it. A brand-new tree starts with a single empty
        node for your founder. Each node also has two buttons:
      </p>
      <ul>
        <li>
          the <Ui>edit</Ui> button opens <Ui>Edit Node</Ui>, where you choose the Sim, partners and
          parents (see <TextLink href="/guides/placing-sims">Placing Sims</TextLink>);
        </li>
        <li>
          the <Ui>add child</Ui> button adds an empty child node underneath.
        </li>
      </ul>
      <p>
        Click a Sim to open their details: portrait, name, biography, biological and adoptive
        parents, traits, aspirations, life states and your custom details, with an <Ui>Edit</Ui>{" "}
        link to change them. Hover over a Sim to highlight their parents in the node above; the
        other Sims there are dimmed, which makes it easy to see which partner a child came from. If
        a Sim is linked to other trees, a link icon on them lists those trees.
      </p>

      <h2>Saving</h2>
      <p>
        The editor saves automatically. Adding a child, placing a Sim, changing partners or parents
        and deleting a node are each saved the moment you make them, so there is nothing to lose if
        you close the tab. If you want to be sure, choose <Ui>Actions</Ui>, then <Ui>Save Tree</Ui>:
        it saves the tree on demand and confirms with &ldquo;Tree saved&rdquo;.
      </p>

      <h2>Previewing</h2>
      <p>
        Tick <Ui>Preview</Ui> to hide the edit and add-child buttons and the node backgrounds. What
        remains is your tree as visitors will see it once it is published, and you can still click
        Sims to read their details. Untick it to carry on editing.
      </p>

      <h2>Deleting a tree</h2>
      <p>
        Choose <Ui>Actions</Ui>, then <Ui>Delete Tree</Ui>, and confirm when asked &ldquo;Are you
        sure you want to delete this tree?&rdquo;. The tree disappears from <Ui>Your Trees</Ui> and
        you are taken back to the home page.
      </p>
      <Note tone="warning">
        <p>
          Deleting a tree does not remove its published copy: anyone with the link can still see it.
          If you want the public copy gone too, unpublish the tree first (see{" "}
          <TextLink href="/guides/publising-trees">Publishing Trees</TextLink>) and delete it
          afterwards.
        </p>
        <p className="mt-2">
          A deleted tree cannot be restored from inside Heirloom. If you deleted one by mistake,
          contact us: recovering it is only possible by asking us.
        </p>
      </Note>
    </>
  );
}

function CreateAndEditSims() {
  return (
    <>
      <p>
        Each tree keeps its own list of people: the Sims of that legacy. A Sim is created once in
        this list and can then be placed in the tree, as a main Sim, a partner or a parent. This
        guide covers the list and the Sim editor; the next one covers placing Sims.
      </p>

      <h2>The people list</h2>
      <p>
        In the Tree Editor, open <Ui>Edit</Ui> and choose <Ui>People in Tree</Ui>. The page{" "}
        <Ui>Manage People in Your Tree</Ui> shows a tile for each Sim with their portrait and name
        (or &ldquo;~ No Name ~&rdquo; when neither name is filled in), and three buttons:{" "}
        <Ui>Edit</Ui>, <Ui>Link</Ui> and <Ui>Delete</Ui>.
      </p>
      <p>
        Large legacies get long. Type in the <Ui>Search</Ui> box to filter the tiles as you type; it
        matches any part of a Sim&rsquo;s first and last name and ignores upper and lower case, so
        &ldquo;bob&rdquo; finds &ldquo;Bob Pancakes&rdquo; and &ldquo;Bella Plumbob&rdquo; alike.{" "}
        <Ui>Back to Your Tree</Ui> returns to the editor.
      </p>

      <h2>Add a Sim</h2>
      <p>
        Choose <Ui>Add Someone New</Ui> to open <Ui>Create Person</Ui>. Every field is optional:
      </p>
      <ul>
        <li>
          <Ui>Avatar</Ui>: upload a JPG or PNG under 10 MB (a CAS screenshot is perfect), then crop
          it to a square.
        </li>
        <li>
          <Ui>First Name</Ui> and <Ui>Last Name</Ui>.
        </li>
        <li>
          A biography, with the same formatting as tree descriptions: bold, italic, underline,
          strikethrough and lists.
        </li>
        <li>
          <Ui>Traits</Ui>, <Ui>Aspirations</Ui> and <Ui>Life States</Ui>: start typing to search the
          suggestions (hundreds of traits, the aspirations, and life states from Alien to Vampire).
          If what you want is not there, type it anyway and add it as your own value.
        </li>
        <li>
          <Ui>More (Custom)</Ui>: choose <Ui>Add More Custom Info</Ui> for a row with a{" "}
          <Ui>Title</Ui> and a <Ui>Value</Ui>, for anything else you track: &ldquo;Generation /
          3&rdquo;, &ldquo;Career / Astronaut&rdquo;, &ldquo;Cause of death / Cowplant&rdquo;. Each
          row has its own remove button.
        </li>
      </ul>
      <p>
        Choose <Ui>Create Person</Ui> to save. You will see &ldquo;Person created&rdquo; and return
        to the people list. <Ui>Cancel</Ui> goes back to the list without saving.
      </p>

      <h2>Edit a Sim</h2>
      <p>
        Choose <Ui>Edit</Ui> on a Sim&rsquo;s tile, or the <Ui>Edit</Ui> link in their details panel
        in the Tree Editor. The same form opens as <Ui>Edit Person</Ui>; change what you need and
        choose <Ui>Update Person</Ui>.
      </p>
      <Note>
        A Sim exists only once in a tree, however many places they appear. Editing a Sim updates
        every place they are placed: as a main Sim, as a partner and as a parent. Aged up, married,
        turned into a vampire? Change it once.
      </Note>

      <h2>Delete a Sim</h2>
      <p>
        Choose <Ui>Delete</Ui> on the tile and confirm when asked &ldquo;Are you sure you want to
        delete this person?&rdquo;. The Sim is removed from the list and from every place in the
        tree where they were placed. The nodes themselves stay, so the rest of the family keeps its
        shape. Deleting cannot be undone.
      </p>
    </>
  );
}

function PlacingSims() {
  return (
    <>
      <p>
        Once your Sims exist in the people list (see{" "}
        <TextLink href="/guides/create-and-edit-sims">Create and Edit Sims</TextLink>), you place
        them in the tree node by node. A node describes one Sim and their household: the main Sim,
        the partners beside them, how the main Sim came to be, and the children below.
      </p>

      <h2>Open the node editor</h2>
      <p>
        In the Tree Editor, make sure <Ui>Preview</Ui> is off and choose a node&rsquo;s edit button.{" "}
        <Ui>Edit Node</Ui> opens with four sections and a <Ui>Close</Ui> button. Each section has
        its own <Ui>Save</Ui> and <Ui>Cancel</Ui>; both take you back to the list of sections, and{" "}
        <Ui>Save</Ui> stores the change in the tree at once.
      </p>

      <h2>Set Node Person</h2>
      <p>
        Pick the node&rsquo;s main Sim from the list of people in this tree; type to search it.
        Their portrait appears as a preview. A node&rsquo;s main Sim can be swapped for another but
        not cleared.
      </p>

      <h2>Set Node Partners</h2>
      <p>
        Choose <Ui>Add Partner</Ui> for each relationship of the main Sim. Every row has a type and
        one or more Sims:
      </p>
      <ul>
        <li>
          <Ui>Partner</Ui> (the default for a new row), drawn with a plus;
        </li>
        <li>
          <Ui>Ex-Partner</Ui>, drawn with a tilted plus;
        </li>
        <li>
          <Ui>Married</Ui>, drawn with a crown-like mark;
        </li>
        <li>
          <Ui>Alien Abduction</Ui>, drawn with an alien mark.
        </li>
      </ul>
      <p>
        Partners appear to the right of the main Sim, in the order of the rows. When a node has more
        than one partner the portraits shrink a little so everyone fits.
      </p>

      <h2>Set Node Parents</h2>
      <p>
        This section records where the main Sim came from. Choose how they were conceived:{" "}
        <Ui>WooHoo</Ui> (the default), <Ui>Alien Abduction</Ui> or <Ui>Cloning</Ui>. Then pick their{" "}
        <Ui>biological parents</Ui> and, if they were adopted, their <Ui>adoptive parents</Ui>. The
        details panel shows this information, with a Clone or Alien Abduction label where it
        applies, and hovering over the Sim highlights their parents in the node above.
      </p>
      <Note>
        Setting parents matters most when a Sim had children with several partners: hovering over
        each child then shows at a glance which partner is their parent.
      </Note>

      <h2>Add children</h2>
      <p>
        The add-child button under a node appends an empty child node below it, after any children
        already there, and saves the tree. Open the new node&rsquo;s edit button to choose who it
        is. Working from the founder downwards, generation by generation, is usually the quickest
        way to build a legacy.
      </p>

      <h2>Delete a node</h2>
      <p>
        The <Ui>Danger Zone</Ui> section has <Ui>Delete This Node</Ui>. You will be asked &ldquo;Are
        you sure you want to delete this node?&rdquo;.
      </p>
      <Note tone="warning">
        Deleting a node removes all of its child nodes too: every generation below it. The Sims
        themselves stay in the people list, so you can place them again, but their nodes, partners
        and parent settings are gone.
      </Note>
    </>
  );
}

function PublishingTrees() {
  return (
    <>
      <p>
        Publishing makes a read-only copy of your tree that anyone with the link can view, no
        account needed. Share it with friends, post it alongside your legacy updates, or embed it on
        your own site.
      </p>

      <h2>Publish a tree</h2>
      <ol>
        <li>
          In the Tree Editor, choose <Ui>Actions</Ui>, then <Ui>Publish Tree</Ui>.
        </li>
        <li>
          The publish page explains what publishing does and shows the public address of the tree,
          which looks like{" "}
          <code className="break-all">
            {"{this site}"}/public/{"{tree id}"}
          </code>
          .
        </li>
        <li>
          Tick <Ui>Is Public</Ui> and choose <Ui>Save Settings</Ui>. You will see &ldquo;Tree
          published&rdquo;, and the page shows the date it was last published, such as &ldquo;March
          3rd, 2025&rdquo;.
        </li>
      </ol>
      <p>
        <Ui>Cancel</Ui> returns to the Tree Editor without changing anything. Before publishing,
        tick <Ui>Preview</Ui> in the editor to check how the tree will look to visitors.
      </p>

      <h2>The public copy is a snapshot</h2>
      <p>
        Publishing copies the tree as it is at that moment. Changes you make afterwards, such as new
        Sims, new children or an edited biography, stay private until you publish again. To update
        the public copy, open the publish page, keep <Ui>Is Public</Ui> ticked and choose{" "}
        <Ui>Save Settings</Ui> once more. The last publish date tells you how fresh the public copy
        is.
      </p>

      <h2>What visitors can do</h2>
      <p>
        Visitors see the tree exactly as in the editor&rsquo;s preview: they can zoom and pan, click
        a Sim to read their details, open <Ui>Tree Info</Ui> for the cover and description, and
        follow a Sim&rsquo;s links to other public trees. They cannot change anything. To point
        someone at one particular Sim, add <code>?p={"{person id}"}</code> to the public address.
      </p>

      <h2>Unpublish a tree</h2>
      <p>
        Open the publish page, untick <Ui>Is Public</Ui> and choose <Ui>Save Settings</Ui>. You will
        see &ldquo;Tree is no longer published&rdquo; and the public address stops working. Your
        tree itself is untouched, and you can publish it again at any time.
      </p>
      <Note tone="warning">
        <p>
          Deleting a tree leaves its published copy online. If you are deleting a tree and do not
          want it visible any more, unpublish it first, then delete it.
        </p>
        <p className="mt-2">
          Deleted trees can only be recovered by contacting us, so think twice before deleting.
        </p>
      </Note>
    </>
  );
}

function LinkingSims() {
  return (
    <>
      <p>
        Sims do not stay in one legacy. A spouse marries in from another family, a spare heir moves
        out and founds a legacy of their own. Links connect a Sim in your tree to the same Sim in
        another tree, so visitors can follow them from one family to the next.
      </p>

      <h2>Links lead only to public trees</h2>
      <p>
        A link opens the published copy of the other tree, so the tree you link to must be public.
        It can be yours or someone else&rsquo;s. If its owner unpublishes it, the link has nowhere
        to go. See <TextLink href="/guides/publising-trees">Publishing Trees</TextLink> for
        publishing your own.
      </p>

      <h2>Find the tree ID and person ID</h2>
      <p>
        A link needs two IDs from the other tree: the tree&rsquo;s and the Sim&rsquo;s. Open the
        other tree (in the editor, or its public page), click the Sim and choose{" "}
        <Ui>Show Link Details</Ui> in their details panel. It shows the tree ID and the person ID;
        copy both. The tree ID is also the last part of a public address,{" "}
        <code className="break-all">/public/{"{tree id}"}</code>.
      </p>

      <h2>Add a link</h2>
      <ol>
        <li>
          In your tree, open <Ui>Edit</Ui>, then <Ui>People in Tree</Ui>, and choose <Ui>Link</Ui>{" "}
          on the Sim&rsquo;s tile.
        </li>
        <li>
          On <Ui>Link Person</Ui>, fill in a <Ui>Title</Ui>: the name visitors will see for the
          other tree, such as &ldquo;The Landgraab Legacy&rdquo;.
        </li>
        <li>
          Paste the <Ui>Tree ID</Ui> and the <Ui>Person ID</Ui>, and choose <Ui>Link Person</Ui>.
          You will see &ldquo;Person links updated&rdquo;.
        </li>
      </ol>
      <p>
        The <Ui>Existing Links</Ui> list shows each link&rsquo;s title, tree ID and person ID, with
        a <Ui>Delete</Ui> button to remove it. A Sim can be linked to several trees: add one link
        for each. <Ui>Back to Tree People</Ui> returns to the people list.
      </p>

      <h2>Following a link</h2>
      <p>
        A linked Sim shows a link icon in the tree. Choosing it lists the titles of that Sim&rsquo;s
        links; choosing one opens the other tree&rsquo;s public page with that Sim picked out.
      </p>
      <Note>
        Your public copy is a snapshot. After adding or removing links, publish your tree again so
        that visitors see them too.
      </Note>
    </>
  );
}

export const GUIDE_CONTENT: Record<GuideSlug, () => ReactNode> = {
  "create-a-tree": CreateATree,
  "tree-editor": TreeEditor,
  "create-and-edit-sims": CreateAndEditSims,
  "placing-sims": PlacingSims,
  "publising-trees": PublishingTrees,
  "linking-sims-to-other-trees": LinkingSims,
};
